// swift-tools-version: 6.0
// Benchmarks live in their own package so that normal builds and tests never compile them.
import PackageDescription

let package = Package(
    name: "Benchmarks",
    dependencies: [.package(name: "PinnedNetwork", path: "..")],
    targets: [
        // The peer: raw libcurl loops in C, the best a libcurl client can do.
        .target(name: "CRawCurl", linkerSettings: [.linkedLibrary("curl")]),
        .executableTarget(name: "bench", dependencies: [
            "CRawCurl",
            .product(name: "Reference", package: "PinnedNetwork"),
            .product(name: "MockServer", package: "PinnedNetwork"),
        ]),
    ]
)

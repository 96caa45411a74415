// swift-tools-version: 6.0
// Benchmarks live in their own package so that normal builds and tests never compile them.
import PackageDescription

// Scripts/bench sets this when the tree has `Configuration.validationProfile`, for the strict-vs-compatible row.
let validationProfiles = Context.environment["BENCH_VALIDATION_PROFILES"] == "1"
// ... and this when it has `Configuration.revocation`, for the revocation-on row.
let revocation = Context.environment["BENCH_REVOCATION"] == "1"
// ... and this when it has `Configuration.resumesTLSSessions`, for the full-handshake contender of the resumption row.
let resumption = Context.environment["BENCH_RESUMPTION"] == "1"
// The NIO stack's --profile needs NIONetworkStack.Configuration.validationProfile (Scripts/bench checks the tree).
let nioValidationProfiles = Context.environment["BENCH_NIO_VALIDATION_PROFILES"] == "1"
// ... and this when it has NIONetworkStack.Configuration.httpVersions, for the NIO stack's HTTP/2 rows.
let nioHTTP2 = Context.environment["BENCH_NIO_HTTP2"] == "1"

// One condition a line: the manifest's type checker gave up on them as one expression.
var benchDefines: [SwiftSetting] = []
if validationProfiles { benchDefines.append(.define("BENCH_VALIDATION_PROFILES")) }
if revocation { benchDefines.append(.define("BENCH_REVOCATION")) }
if resumption { benchDefines.append(.define("BENCH_RESUMPTION")) }
if nioValidationProfiles { benchDefines.append(.define("BENCH_NIO_VALIDATION_PROFILES")) }
if nioHTTP2 { benchDefines.append(.define("BENCH_NIO_HTTP2")) }

let package = Package(
    name: "Benchmarks",
    dependencies: [
        .package(name: "PinnedNetwork", path: ".."),
        .package(name: "NIOStack", path: "../NIOStack"),
        // Peers written in Swift (swift-nio + BoringSSL), for ratios next to raw libcurl.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.29.0"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // The peer: raw libcurl loops in C, the best a libcurl client can do.
        .target(name: "CRawCurl", linkerSettings: [.linkedLibrary("curl")]),
        .executableTarget(
            name: "bench",
            dependencies: [
                "CRawCurl",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NetworkCore", package: "PinnedNetwork"),
                .product(name: "Reference", package: "PinnedNetwork"),
                .product(name: "NIOStack", package: "NIOStack"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
            ],
            swiftSettings: benchDefines
        ),
    ]
)

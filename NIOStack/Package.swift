// swift-tools-version: 6.0
// The project's semantics on SwiftNIO + NIOSSL, in a package of its own so that the main package's build never
// compiles NIO, NIOSSL or swift-certificates.
import PackageDescription

let package = Package(
    name: "NIOStack",
    products: [
        .library(name: "NIOStack", targets: ["NIOStack"]),
    ],
    dependencies: [
        .package(name: "PinnedNetwork", path: ".."),
        .package(url: "https://github.com/apple/swift-nio", "2.101.0"..<"2.102.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", exact: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-http2", exact: "1.46.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", exact: "1.35.2"),
        .package(url: "https://github.com/apple/swift-certificates", exact: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
    ],
    targets: [
        // MARK: The FetchTransport on NIO, trust decided inside the handshake by swift-certificates' Verifier.
        .target(name: "NIOStack", dependencies: [
            .product(name: "NetworkCore", package: "PinnedNetwork"),
            .product(name: "CertificateRules", package: "PinnedNetwork"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOTLS", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "NIOHTTP2", package: "swift-nio-http2"),
            .product(name: "NIOHPACK", package: "swift-nio-http2"),
            .product(name: "NIOEmbedded", package: "swift-nio"),
            .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ]),

        // MARK: The conformance suite against the NIO stack (Scripts/report).
        .executableTarget(name: "nio-conformance", dependencies: [
            "NIOStack",
            .product(name: "Conformance", package: "PinnedNetwork"),
            .product(name: "NetworkCore", package: "PinnedNetwork"),
        ], path: "Sources/NIOConformance"),

        // MARK: The differential check of the two stacks' certificate facts: a libFuzzer target under -D FUZZING
        // (NIOStack/Scripts/fuzz), a replay of the files it is given otherwise.
        .target(name: "CertificateFactsDifference", dependencies: [
            "NIOStack",
            .product(name: "CertificateRules", package: "PinnedNetwork"),
            .product(name: "Reference", package: "PinnedNetwork"),
            .product(name: "X509", package: "swift-certificates"),
        ], path: "Fuzz/CertificateFactsDifference"),
        .executableTarget(name: "facts-fuzz", dependencies: [
            "CertificateFactsDifference"
        ], path: "Fuzz/CertificateFacts"),

        .testTarget(name: "NIOStackTests", dependencies: [
            "NIOStack", "CertificateFactsDifference",
            .product(name: "CertificateRules", package: "PinnedNetwork"),
            .product(name: "Reference", package: "PinnedNetwork"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
            .product(name: "NetworkCore", package: "PinnedNetwork"),
            .product(name: "Pinning", package: "PinnedNetwork"),
            .product(name: "MockServer", package: "PinnedNetwork"),
            .product(name: "FoundationSubject", package: "PinnedNetwork"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "NIOHTTP2", package: "swift-nio-http2"),
            .product(name: "NIOHPACK", package: "swift-nio-http2"),
        ]),
    ]
)

// swift-tools-version: 6.0
import PackageDescription

// Linux only: the reference stack and the MockServer are built on Glibc, libcurl and OpenSSL (Debian's
// libcurl4-openssl-dev and libssl-dev). SwiftPM has no way to say so in `platforms`.
let package = Package(
    name: "PinnedNetwork",
    products: [
        .library(name: "NetworkCore", targets: ["NetworkCore"]),
        .library(name: "Pinning", targets: ["Pinning"]),
        .library(name: "CertificateRules", targets: ["CertificateRules"]),
        .library(name: "Reference", targets: ["Reference"]),
        .library(name: "MockServer", targets: ["MockServer"]),
        .library(name: "Conformance", targets: ["Conformance"]),
        .library(name: "ReferenceConformance", targets: ["ReferenceConformance"]),
        .library(name: "FoundationSubject", targets: ["FoundationSubject"]),
        .library(name: "ReferenceServiceLifecycle", targets: ["ReferenceServiceLifecycle"]),
        .executable(name: "conformance", targets: ["ConformanceCommand"]),
        .executable(name: "verify-chain", targets: ["VerifyChain"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Only for `swift package generate-documentation` (Scripts/docs); no target depends on it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // MARK: C libraries and shims (never products: not API)
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CPSL", pkgConfig: "libpsl", providers: [.apt(["libpsl-dev"])]),
        .systemLibrary(name: "CNghttp2", pkgConfig: "libnghttp2", providers: [.apt(["libnghttp2-dev"])]),
        .target(name: "CShims", dependencies: ["CCurl"]),
        .target(name: "COpenSSLShims", dependencies: ["COpenSSL"]),
        .target(name: "CHeapShims"),

        // MARK: The spec's types, free of C: third-party stacks depend on this alone.
        .target(name: "NetworkCore"),

        // MARK: The validation profile's rules over plain certificate facts: one judge for every stack's X.509 library.
        .target(name: "CertificateRules", dependencies: ["NetworkCore", "CPSL"]),

        // MARK: SPKI pinning and per-host trust policies: challenge handlers that need no TLS or HTTP library.
        .target(name: "Pinning", dependencies: ["NetworkCore", "COpenSSL", "COpenSSLShims"]),

        // MARK: The reference stack on libcurl + OpenSSL.
        .target(name: "Reference", dependencies: [
            "NetworkCore", "Pinning", "CertificateRules", "CCurl", "COpenSSL", "CShims", "COpenSSLShims",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "CoreMetrics", package: "swift-metrics"),
        ]),

        // MARK: The stack as a swift-service-lifecycle Service, apart so that Reference stays light.
        .target(name: "ReferenceServiceLifecycle", dependencies: [
            "Reference", .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),

        // MARK: The in-process HTTPS server.
        .target(name: "MockServer", dependencies: ["NetworkCore", "COpenSSL", "COpenSSLShims", "CNghttp2"]),

        // MARK: The conformance suite. Third parties import `Conformance`, which re-exports the three below it. None
        // links a stack: a third party's stack runs the suite without libcurl.
        // The case model and the runner: what a case is and expects, and how one runs against a subject.
        .target(name: "ConformanceModel", dependencies: ["NetworkCore", "Pinning", "MockServer"]),
        // The catalogue: every case, as data.
        .target(name: "ConformanceCatalogue", dependencies: ["ConformanceModel", "NetworkCore", "Pinning", "MockServer"]),
        // The report formats (text, JSON, JUnit, Markdown, HTML), comparisons and the coverage document.
        .target(name: "ConformanceReports", dependencies: ["ConformanceModel", "ConformanceCatalogue", "NetworkCore"]),
        // The command line (`conformance run|list|compare|coverage|report|convert|soak|version`), the worker processes.
        .target(name: "Conformance", dependencies: [
            "ConformanceModel", "ConformanceCatalogue", "ConformanceReports", "NetworkCore", "MockServer", "CHeapShims",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        // MARK: The reference stack as the suite's subject.
        .target(name: "ReferenceConformance", dependencies: ["Conformance", "Reference"]),

        // MARK: A second subject: the same NetworkStack on Foundation's URLSession.
        .target(name: "FoundationSubject", dependencies: ["NetworkCore", "Conformance"]),

        // MARK: The main command.
        .executableTarget(name: "ConformanceCommand", dependencies: [
            "Conformance", "ReferenceConformance", "FoundationSubject",
        ]),

        // MARK: The reference stack's standard validation of one chain, without a server (Scripts/verify-chain).
        .executableTarget(name: "VerifyChain", dependencies: [
            "Reference", "Pinning", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        // MARK: Tests
        // Swift Testing traits the test targets share: `.blocking` for suites that wait synchronously.
        .target(name: "TestTraits", path: "Tests/TestTraits"),
        // A conformance command whose subject traps on one case: the crash-isolation tests run it.
        .executableTarget(
            name: "TrappingSubject",
            dependencies: [
                "Conformance", "ReferenceConformance", "NetworkCore", "Reference",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tests/TrappingSubject"),
        .testTarget(name: "PinningTests", dependencies: ["Pinning"]),
        .testTarget(name: "CertificateRulesTests", dependencies: ["CertificateRules", "NetworkCore"]),
        .testTarget(name: "NetworkCoreTests", dependencies: ["NetworkCore", "TestTraits"]),
        .testTarget(name: "ReferenceTests", dependencies: [
            "NetworkCore", "Reference", "MockServer", "Conformance", "TestTraits",
            .product(name: "MetricsTestKit", package: "swift-metrics"),
        ]),
        .testTarget(name: "MockServerTests", dependencies: ["MockServer", "TestTraits"]),
        // The README's tour as a user pastes it into a test target: the products alone, nothing of this package's tests.
        .testTarget(name: "ReadmeTour", dependencies: ["Reference", "MockServer"]),
        .testTarget(name: "ReferenceServiceLifecycleTests", dependencies: [
            "ReferenceServiceLifecycle", "Reference", "MockServer", "TestTraits",
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
        ]),
        .testTarget(
            name: "ConformanceTests",
            dependencies: [
                "NetworkCore", "Conformance", "ConformanceModel", "ConformanceCatalogue", "ConformanceReports",
                "ReferenceConformance", "Reference", "MockServer", "TestTraits",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tests/Conformance"),
    ]
)

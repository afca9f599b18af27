// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "HybridShell",
    products: [
        .library(name: "HybridShell", targets: ["HybridShell"]),
        .executable(name: "hybrid-run", targets: ["hybrid-run"]),
        .executable(name: "hybrid-bench", targets: ["hybrid-bench"]),
        // The path-map web-process extension WebKit loads (docs/offline-packages.md, Path-map mode).
        .library(name: "HybridShellPathMap", type: .dynamic, targets: ["HybridShellPathMap"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/LebJe/TOMLKit.git", from: "0.6.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/weichsel/ZIPFoundation.git", from: "0.9.20"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        // `hybrid-run mcp` (docs/mcp.md): the official Model Context Protocol SDK, its stdio server.
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk.git", exact: "0.12.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CWebKitGTK",
            pkgConfig: "webkit2gtk-4.1",
            providers: [.apt(["libwebkit2gtk-4.1-dev", "libgtk-3-dev"])]
        ),
        .systemLibrary(
            name: "CWebKitWebExtension",
            pkgConfig: "webkit2gtk-web-extension-4.1",
            providers: [.apt(["libwebkit2gtk-4.1-dev"])]
        ),
        .target(name: "HybridShellPathMap", dependencies: ["CWebKitWebExtension"]),
        // GLib, GIO and libsoup for the core: its executor, timers, fd watches and loopback server.
        .systemLibrary(
            name: "CGLib",
            pkgConfig: "libsoup-3.0",
            providers: [.apt(["libsoup-3.0-dev", "libglib2.0-dev"])]
        ),
        // The layers, kept apart by the compiler: the core knows no WebKit (it builds and is tested
        // without a display), the WebKit layer wraps the engine, HybridShell is what an app embeds.
        .target(
            name: "HybridShellCore",
            dependencies: [
                "CGLib",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "TOMLKit", package: "TOMLKit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .target(
            name: "HybridShellWebKit",
            dependencies: ["HybridShellCore", "CWebKitGTK", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "HybridShell",
            dependencies: [
                "HybridShellCore",
                "HybridShellWebKit",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .executableTarget(
            name: "hybrid-run",
            dependencies: [
                "HybridShell",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MCP", package: "swift-sdk"),
            ]
        ),
        .executableTarget(
            name: "hybrid-bench",
            dependencies: ["HybridShell"]
        ),
        // Helpers both test targets use (package fixtures); no WebKit.
        .target(
            name: "HybridShellTestSupport",
            dependencies: ["HybridShellCore"],
            path: "Tests/HybridShellTestSupport"
        ),
        // Everything that needs no engine: the bridge over a fake engine, codecs, policies,
        // packages. Runs without a display: `env -u DISPLAY swift test --filter HybridShellCoreTests`.
        .testTarget(
            name: "HybridShellCoreTests",
            dependencies: ["HybridShellCore", "HybridShellTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "Logging", package: "swift-log")]
        ),
        // Example apps that embed the library (README's Swift comes from them); `make test` runs both.
        .executableTarget(name: "example-scheme-app", dependencies: ["HybridShell"], path: "Examples/SchemeApp",
                          exclude: ["web"]),
        .executableTarget(name: "example-package-app", dependencies: ["HybridShell"], path: "Examples/PackageApp",
                          exclude: ["site"]),
        .testTarget(
            name: "HybridShellTests",
            // The CLI target too: its commands, reporters and exit statuses are tested with
            // `@testable import hybrid_run`.
            dependencies: ["HybridShell", "HybridShellTestSupport", "hybrid-run", .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "Logging", package: "swift-log"), .product(name: "MCP", package: "swift-sdk")],
            exclude: ["README.md"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

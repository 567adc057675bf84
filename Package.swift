// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "stores",
  // iOS for StoresClient, the library an app links (the CLI and the service are built for macOS and Linux).
  platforms: [.macOS(.v15), .iOS(.v17)],
  products: [
    .library(name: "GeoIndex", targets: ["GeoIndex"]),
    .library(name: "OpeningHours", targets: ["OpeningHours"]),
    .library(name: "StoreLocator", targets: ["StoreLocator"]),
    .executable(name: "stores", targets: ["StoresCLI"]),
    // The web stack is a product of its own: `swift run stores` never builds Hummingbird.
    .library(name: "StoresAPI", targets: ["StoresAPI"]),
    .executable(name: "stores-server", targets: ["StoresServer"]),
    // The generated client with a thin layer for apps and servers; it depends on no other target
    // here, so an app that links it pulls neither the catalog nor the web stack.
    .library(name: "StoresClient", targets: ["StoresClient"]),
    // `StoresClient(serverURL:httpClient:)` over AsyncHTTPClient, for a server that calls the
    // service: a product of its own, so an app over URLSession builds no SwiftNIO and no BoringSSL.
    .library(name: "StoresClientNIO", targets: ["StoresClientNIO"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    // Traits off: the service needs neither swift-configuration nor Foundation-backed extras.
    .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.0", traits: []),
    .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
    .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.0"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
    .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
    .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.0"),
    // StoresClient: the runtime its generated code calls and URLSession's transport, for apps;
    // StoresClientNIO: AsyncHTTPClient's, for servers.
    .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.8.0"),
    .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.1.0"),
    .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.1.0"),
    .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.23.0"),
    // Where the stores' state lives (DESIGN §13): SQLite in a file (the SQLite library is built
    // in, nothing to install), PostgreSQL when replicas share it (docs/state.md says why these).
    .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.0"),
    .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.0"),
  ],
  targets: [
    // `__builtin_prefetch` for GeoIndex's searches (the next leaf, the results' coordinates).
    .target(name: "CGeoIndexPrefetch"),
    .target(name: "GeoIndex", dependencies: ["CGeoIndexPrefetch"]),
    .target(name: "OpeningHours"),
    .target(name: "StoreLocator", dependencies: ["GeoIndex", "OpeningHours"]),
    .executableTarget(
      name: "StoresCLI",
      dependencies: [
        "StoreLocator",
        "StoresState",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // The state's storage: the protocol, memory and SQLite. The library sees only values.
    .target(
      name: "StoresState",
      dependencies: [
        "StoreLocator",
        .product(name: "SQLiteNIO", package: "sqlite-nio"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ]
    ),
    // PostgreSQL, for replicas that share the state: linked by the service only, so the command
    // line does not build a TLS stack.
    .target(
      name: "StoresStatePostgres",
      dependencies: [
        "StoresState",
        "StoreLocator",
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ]
    ),
    .target(
      name: "StoresAPI",
      dependencies: [
        "StoreLocator",
        "StoresState",
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        // HTTP/1.1 as parsed, before Hummingbird's version-free types: GuardedHTTP1Channel.
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
        .product(name: "Prometheus", package: "swift-prometheus"),
      ],
      // The store picker page, built into the binary: a service needs no files beside it to serve
      // its own page (Leaflet and the basemap are read from directories at startup).
      resources: [
        .embedInCode("Page/index.html"), .embedInCode("Page/picker.js"), .embedInCode("Page/picker.css"),
        // The contract, as a file to read and diff; served byte for byte (OpenAPIDocument.swift).
        .embedInCode("openapi.json"),
      ]
    ),
    .executableTarget(
      name: "StoresServer",
      dependencies: [
        "StoresAPI",
        "StoreLocator",
        "StoresState",
        "StoresStatePostgres",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "UnixSignals", package: "swift-service-lifecycle"),
      ]
    ),
    .target(
      name: "StoresClient",
      dependencies: [
        .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
        .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
      ],
      // Read by scripts/client/generate_swift_client.sh, not by a build plugin (docs/clients.md).
      exclude: ["openapi-generator-config.yaml"]
    ),
    .target(
      name: "StoresClientNIO",
      dependencies: [
        "StoresClient",
        .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
      ]
    ),
    .testTarget(name: "GeoIndexTests", dependencies: ["GeoIndex"]),
    .testTarget(name: "OpeningHoursTests", dependencies: ["OpeningHours"]),
    .testTarget(
      name: "StoreLocatorTests",
      dependencies: ["StoreLocator"],
      resources: [.copy("Fixtures")]
    ),
    .testTarget(name: "StoresCLITests", dependencies: ["StoresCLI", "StoreLocator"]),
    .testTarget(
      name: "StoresStateTests",
      dependencies: [
        "StoresState",
        "StoresStatePostgres",
        "StoreLocator",
        // Built for the tests that run the binaries: a change through the CLI, seen by the service.
        "StoresCLI",
        "StoresServer",
        // To reach behind a storage: a newer schema version written by hand, a database per test.
        .product(name: "SQLiteNIO", package: "sqlite-nio"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .testTarget(
      name: "StoresAPITests",
      dependencies: [
        "StoresAPI",
        "StoreLocator",
        "StoresState",
        // Built for the tests that run the binaries: the CLI beside the service, the service itself.
        "StoresCLI",
        "StoresServer",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        .product(name: "NIOEmbedded", package: "swift-nio"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "Prometheus", package: "swift-prometheus"),
      ]
    ),
    .testTarget(
      name: "StoresClientTests",
      dependencies: [
        "StoresClient",
        "StoresClientNIO",
        // Built for the tests that run the binaries: the service to call, the CLI to compare with.
        "StoresCLI",
        "StoresServer",
        .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
        .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
        .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)

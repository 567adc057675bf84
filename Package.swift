// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "stores",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "GeoIndex", targets: ["GeoIndex"]),
    .library(name: "OpeningHours", targets: ["OpeningHours"]),
    .library(name: "StoreLocator", targets: ["StoreLocator"]),
    .executable(name: "stores", targets: ["StoresCLI"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
  ],
  targets: [
    .target(name: "GeoIndex"),
    .target(name: "OpeningHours"),
    .target(name: "StoreLocator", dependencies: ["GeoIndex", "OpeningHours"]),
    .executableTarget(
      name: "StoresCLI",
      dependencies: [
        "StoreLocator",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
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
  ],
  swiftLanguageModes: [.v6]
)

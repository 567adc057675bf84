// swift-tools-version: 6.2
// Release-mode measurements for `stores`. A separate package, so the root's `swift build` and
// `swift test` never compile it. Run from this directory:
//   swift run -c release stores-benchmarks --help
import PackageDescription

let package = Package(
  name: "stores-benchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "stores", path: "..")
  ],
  targets: [
    .executableTarget(
      name: "stores-benchmarks",
      dependencies: [
        .product(name: "GeoIndex", package: "stores"),
        .product(name: "StoreLocator", package: "stores"),
        .product(name: "OpeningHours", package: "stores"),
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)

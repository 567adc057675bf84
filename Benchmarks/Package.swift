// swift-tools-version: 6.2
// Release-mode measurements for `stores`. A separate package, so the root's `swift build` and
// `swift test` never compile it. Run from this directory:
//   swift run -c release stores-benchmarks --help
import PackageDescription

let package = Package(
  name: "stores-benchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "stores", path: ".."),
    // Only for `hummingbird-ceiling`, the framework anchor of scripts/service_benchmark.py;
    // `swift build -c release --product stores-benchmarks` does not compile it.
    .package(url: "https://github.com/hummingbird-project/hummingbird.git", "2.28.0"..<"2.29.0"),
  ],
  targets: [
    .executableTarget(
      name: "stores-benchmarks",
      dependencies: [
        .product(name: "GeoIndex", package: "stores"),
        .product(name: "StoreLocator", package: "stores"),
        .product(name: "OpeningHours", package: "stores"),
      ]
    ),
    .executableTarget(
      name: "hummingbird-ceiling",
      dependencies: [.product(name: "Hummingbird", package: "hummingbird")]
    ),
  ],
  swiftLanguageModes: [.v6]
)

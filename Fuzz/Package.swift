// swift-tools-version: 6.2
// libFuzzer targets over every reader of outside input. A separate package, so the root's
// `swift build` and `swift test` never compile it. The targets only work when built with the
// fuzzer and address sanitizers, for every module (the library included), so build with run.sh or:
//   swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld
// (see README.md: why lld, and why the targets have an @main).
import PackageDescription

let targets = ["geojson", "hours", "batch", "order", "holidays", "snapshot"]

let package = Package(
  name: "stores-fuzz",
  platforms: [.macOS(.v15)],
  products: targets.map { .executable(name: "fuzz-\($0)", targets: ["fuzz-\($0)"]) },
  dependencies: [
    .package(name: "stores", path: "..")
  ],
  targets: [
    // Declares libFuzzer's LLVMFuzzerRunDriver, which the sanitizer runtime defines.
    .target(name: "CLibFuzzer"),
    .target(
      name: "FuzzSupport",
      dependencies: [
        "CLibFuzzer",
        .product(name: "StoreLocator", package: "stores"),
        .product(name: "OpeningHours", package: "stores"),
      ]
    ),
  ]
    + targets.map {
      .executableTarget(
        name: "fuzz-\($0)",
        dependencies: [
          "FuzzSupport",
          .product(name: "GeoIndex", package: "stores"),
          .product(name: "StoreLocator", package: "stores"),
          .product(name: "OpeningHours", package: "stores"),
        ]
      )
    },
  swiftLanguageModes: [.v6]
)

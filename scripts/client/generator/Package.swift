// swift-tools-version: 6.2
// Only here to build swift-openapi-generator's command for scripts/client/generate_swift_client.sh.
// It is not part of the stores package, so neither users of StoresClient nor `swift build` in the
// repository ever build the generator (docs/clients.md says why the generated code is committed).
import PackageDescription

let package = Package(
  name: "stores-client-generator",
  dependencies: [
    .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3")
  ],
  targets: []
)

#!/usr/bin/env bash
# An app that links StoresClient alone (as the README's "Call it from an app" says: over
# URLSession) builds neither SwiftNIO nor BoringSSL: a clean debug build of a new package that
# depends on this checkout by path and calls the client fails here if any NIO or SSL module was
# compiled for it. Prints the clean build's time (docs/clients.md records it).
#
#   scripts/client/check_light_app.sh [SCRATCH_DIR]     (default: a new temporary folder, removed after)
set -euo pipefail
repository="$(cd "$(dirname "$0")/../.." && pwd)"
scratch="${1:-}"
if [ -z "$scratch" ]; then
  scratch="$(mktemp -d /tmp/stores-light-app.XXXXXX)"
  trap 'rm -rf "$scratch"' EXIT
fi
mkdir -p "$scratch/Sources/App"
cat > "$scratch/Package.swift" <<SWIFT
// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "App",
  platforms: [.macOS(.v15), .iOS(.v17)],
  dependencies: [.package(name: "stores", path: "$repository")],
  targets: [.executableTarget(name: "App", dependencies: [.product(name: "StoresClient", package: "stores")])]
)
SWIFT
cat > "$scratch/Sources/App/main.swift" <<'SWIFT'
import Foundation
import StoresClient

let stores = StoresClient(serverURL: URL(string: "http://127.0.0.1:8080")!)
let here = Coordinate(latitude: 47.6062, longitude: -122.3321)
let nearby = try await stores.nearest(to: here, count: 3, openNow: true)
for store in nearby.stores { print(store.id, store.name ?? "", store.state) }
SWIFT
start=$SECONDS
(cd "$scratch" && swift build --scratch-path "$scratch/.build" 2>&1 | tail -1)
seconds=$((SECONDS - start))
# A module compiled leaves object files in its folder; the planner makes empty folders for the
# package's other products, which do not count.
compiled=$(find "$scratch/.build/debug/" -name '*.o' | sed -n 's|.*/debug/\([^/]*\)\.build/.*|\1|p' | sort -u)
heavy=$(echo "$compiled" | grep -iE 'nio|ssl|asynchttpclient|crypto' || true)
if [ -n "$heavy" ]; then
  echo "check_light_app: an app linking StoresClient alone compiled these: $(echo $heavy)" >&2
  exit 1
fi
echo "an app linking StoresClient alone: a clean debug build in $seconds s, compiling $(echo "$compiled" | wc -l) modules: $(echo $compiled)"

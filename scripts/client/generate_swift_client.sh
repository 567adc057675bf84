#!/usr/bin/env bash
# Generates StoresClient's Swift code from the service's OpenAPI document with
# swift-openapi-generator (the version pinned in scripts/client/generator/Package.swift):
#
#   scripts/client/generate_swift_client.sh          regenerate Sources/StoresClient/Generated
#   scripts/client/generate_swift_client.sh --check  regenerate into a temporary folder and fail,
#                                                    naming the files, when the committed code is
#                                                    stale, or when the generator warned at all
#
# Why the code is committed rather than made by the build plugin: the plugin would build the
# generator (swift-openapi-generator with OpenAPIKit and Yams) in every package that depends on
# StoresClient, app or server, before its first build, and in every CI run; the measured cost is in
# docs/clients.md. Committed code costs users nothing, and CI's --check keeps it honest.
#
# The generated files get a `// swift-format-ignore-file` line after their first line: swift-format
# 6.3 reads no ignore file, and generated code is not ours to lint (.ci/run lints all of Sources).
set -euo pipefail
cd "$(dirname "$0")/../.."

check=false
case "${1:-}" in
  "") ;;
  --check) check=true ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

document=Sources/StoresAPI/openapi.json
config=Sources/StoresClient/openapi-generator-config.yaml
committed=Sources/StoresClient/Generated

# The generator is built once into .build-generator (kept between runs, ignored by git).
swift build --package-path scripts/client/generator --scratch-path .build-generator \
  --product swift-openapi-generator >&2
generator="$(swift build --package-path scripts/client/generator --scratch-path .build-generator \
  --show-bin-path)/swift-openapi-generator"

output="$(mktemp -d)"
log="$(mktemp)"
trap 'rm -rf "$output" "$log"' EXIT

"$generator" generate "$document" --config "$config" --output-directory "$output" >"$log" 2>&1 || {
  cat "$log" >&2
  echo "swift-openapi-generator failed on $document" >&2
  exit 1
}

for file in "$output"/*.swift; do
  # The generator's first line says the file is generated; the ignore line goes right after it.
  # Its imports are `public import`, which Swift 6.3 warns about in every file that does not use
  # the module in a public declaration (the generator silences that from Swift 6.4 on): a plain
  # `import`, public by default in this package (no InternalImportsByDefault), exports the same
  # and warns about nothing, so `swift build` prints no warning of the package's own.
  { head -n 1 "$file"; echo "// swift-format-ignore-file"; tail -n +2 "$file"; } \
    | sed -E 's/^(@_spi\(Generated\) )?public import /\1import /' >"$file.tmp"
  mv "$file.tmp" "$file"
done

warnings="$(grep -i 'warning:' "$log" || true)"

if ! $check; then
  mkdir -p "$committed"
  rm -f "$committed"/*.swift
  cp "$output"/*.swift "$committed"/
  echo "regenerated $committed from $document: $(cd "$committed" && ls *.swift | tr '\n' ' ')"
  if [ -n "$warnings" ]; then
    echo "the generator warned ($(printf '%s\n' "$warnings" | wc -l) lines):" >&2
    printf '%s\n' "$warnings" >&2
  fi
  exit 0
fi

status=0
stale=""
for file in "$output"/*.swift; do
  name="$(basename "$file")"
  cmp -s "$file" "$committed/$name" || stale="$stale $committed/$name"
done
for file in "$committed"/*.swift; do
  [ -e "$file" ] || continue
  [ -e "$output/$(basename "$file")" ] || stale="$stale $file(no longer generated)"
done
if [ -n "$stale" ]; then
  echo "stale generated client code, run scripts/client/generate_swift_client.sh:$stale" >&2
  status=1
fi
if [ -n "$warnings" ]; then
  echo "swift-openapi-generator warned on $document ($(printf '%s\n' "$warnings" | wc -l) lines):" >&2
  printf '%s\n' "$warnings" >&2
  status=1
fi
[ $status -eq 0 ] && echo "generated client code is up to date and the generator printed no warning"
exit $status

#!/usr/bin/env bash
# Builds the libFuzzer targets and runs each for a bounded time; exits 1 when any target found a
# crash, an out-of-memory or a timeout (the input is saved, see below).
#
#   Fuzz/run.sh [TARGET|all] [SECONDS]      default: all, 60 seconds each
#   FUZZ_JOBS=N  runs N fuzzing processes per target (libFuzzer -fork) instead of one
#   FUZZ_KEEP_GOING=1  with FUZZ_JOBS, goes on after a crash, OOM or timeout to find more (the run
#                      still fails when there was one)
#
# Work files go under Fuzz/.build-work/ (ignored by git): corpus/TARGET grows from run to run,
# seeds/TARGET is rebuilt each run from ../shared/corpus and the project's fixtures (nothing is
# copied into the repository), crashes/TARGET/ holds crash-*, oom-*, timeout-* inputs and
# logs/TARGET.log the fuzzer's output. Replay one input: .build/release/fuzz-TARGET FILE
set -euo pipefail
cd "$(dirname "$0")"
fuzz_dir=$(pwd)
root=$(cd .. && pwd)
shared_corpus=$(cd "$root/.." && pwd)/shared/corpus

all_targets=(geojson hours batch order holidays snapshot)
which=${1:-all}
seconds=${2:-60}
if [ "$which" = all ]; then targets=("${all_targets[@]}"); else targets=("$which"); fi

# -sanitize=fuzzer instruments every module for coverage and links libFuzzer; address adds ASan.
# lld, because gold fails on the sanitizer runtime ("internal error in format_file_lineno").
build_flags=(-c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld)
echo "== building the fuzz targets (release, -sanitize=fuzzer,address)"
swift build "${build_flags[@]}"
bin=$(swift build "${build_flags[@]}" --show-bin-path)

work="$fuzz_dir/.build-work"

# The longest input per target: long enough for several records or lines, short enough to keep
# executions fast; the readers' own size limits (docs/limits.md) are tested in the normal suite.
max_len() {
  case $1 in
    geojson) echo 65536 ;;
    hours) echo 4096 ;;
    batch) echo 16384 ;;
    order) echo 16384 ;;
    holidays) echo 65536 ;;
    snapshot) echo 262144 ;;
  esac
}

# Fills $work/seeds/$1 from the project's fixtures and ../shared/corpus (when present).
make_seeds() {
  local target=$1 seeds="$work/seeds/$1"
  rm -rf "$seeds" && mkdir -p "$seeds"
  local shared_geojson=()
  if [ -d "$shared_corpus/geojson" ]; then
    shared_geojson=("$shared_corpus"/geojson/*)
  else
    echo "note: $shared_corpus is absent; seeding from the project's fixtures only"
  fi
  case $target in
    geojson)
      cp "$root"/Tests/StoreLocatorTests/Fixtures/* "$seeds"/
      # The large files are cut to the maximum length by libFuzzer when it reads them.
      for file in "${shared_geojson[@]}"; do cp "$file" "$seeds/"; done
      head -c 60000 "$root/Data/stores.geojson" >"$seeds/bundled-head.geojson"
      ;;
    hours | batch)
      python3 "$fuzz_dir/scripts/hours_seeds.py" "$target" "$seeds" "$shared_corpus/hours" "$root/Data/stores.geojson"
      ;;
    order)
      cp "$root"/docs/examples/*.json "$seeds"/
      ;;
    holidays)
      cp "$root"/Data/holidays/*.json "$seeds"/
      ;;
    snapshot)
      local sources=("$root"/Tests/StoreLocatorTests/Fixtures/*)
      for file in "${shared_geojson[@]}"; do
        [ "$(wc -c <"$file")" -le 120000 ] && sources+=("$file")
      done
      "$bin/fuzz-snapshot" --make-seeds "$seeds" "${sources[@]}"
      ;;
  esac
}

status=0
summary=()
for target in "${targets[@]}"; do
  corpus="$work/corpus/$target" crashes="$work/crashes/$target/" log="$work/logs/$target.log"
  mkdir -p "$corpus" "$crashes" "$work/logs"
  # The targets' scratch files (snapshots they map) and libFuzzer's own temporary files go to a
  # directory of this target's, removed when it ends: a fuzzing process ends without cleaning up.
  scratch="$work/tmp/$target"
  rm -rf "$scratch" && mkdir -p "$scratch"
  export TMPDIR="$scratch"
  make_seeds "$target"
  echo "== fuzz-$target for ${seconds}s (log: ${log#"$root/"})"
  fork=()
  if [ -n "${FUZZ_JOBS:-}" ]; then
    fork=(-fork="$FUZZ_JOBS")
    if [ -n "${FUZZ_KEEP_GOING:-}" ]; then fork+=(-ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1); fi
  fi
  before=$(find "$crashes" -type f | wc -l)
  # Swift's runtime keeps metadata caches for the life of the process, which LeakSanitizer would
  # report at exit; leaks are not what these targets look for. Swift's own crash handler is off:
  # its memory server trips ASan and hides libFuzzer's report of the trap.
  set +e
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$bin/fuzz-$target" "$corpus" "$work/seeds/$target" \
    -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len="$(max_len "$target")" \
    -detect_leaks=0 -print_final_stats=1 -artifact_prefix="$crashes" "${fork[@]}" >"$log" 2>&1
  result=$?
  set -e
  # Executions: libFuzzer's final statistics, or in fork mode the parent's last "#N:" status line.
  runs=$(grep -E "stat::number_of_executed_units" "$log" | tail -1 | awk '{print $2}' || true)
  if [ -z "$runs" ]; then runs=$(grep -oE "^#[0-9]+" "$log" | tail -1 | tr -d '#' || true); fi
  found=$(($(find "$crashes" -type f | wc -l) - before))
  if [ $result -ne 0 ] || [ "$found" -gt 0 ]; then
    status=1
    summary+=("fuzz-$target: FAILED (exit $result, $found new inputs in ${crashes#"$root/"}) after ${runs:-?} executions; see ${log#"$root/"}")
    grep -E "ERROR: libFuzzer|ERROR: AddressSanitizer|fuzz invariant failed|Fatal error|Swift runtime failure|Test unit written" "$log" | sed -E "s/^==[0-9]+== ?//" | sort | uniq -c | head -10 || true
  else
    summary+=("fuzz-$target: clean, ${runs:-?} executions in ${seconds}s")
  fi
  echo "${summary[-1]}"
  rm -rf "$scratch"
done
echo "== summary"
printf '%s\n' "${summary[@]}"
exit $status

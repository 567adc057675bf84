#!/bin/bash
# Usage: snapshot_answers_compare.sh BASE_STORES NEW_STORES BASE_SNAP NEW_SNAP GEOJSON OUTDIR [GEO_POINTS]
# Writes every answer of both builds to OUTDIR/{base,new}/ and diffs them.
# GEO_POINTS: load the GeoJSON for the first GEO_POINTS of the 36 points only (default all; each
# load of a 1M-store file takes tens of seconds). Each snapshot is read through one path,
# OUTDIR/answers.snap (a symbolic link), since `validate` and `info` print the snapshot's path.
set -u
BASE=$1; NEW=$2; BSNAP=$3; NSNAP=$4; GEO=$5; OUT=$6; GEO_POINTS=${7:-36}
rm -rf "$OUT"; mkdir -p "$OUT/base" "$OUT/new"
NOW=2026-11-25T15:00:00Z
points=$(python3 -c '
import random
r = random.Random(25)
pts = ["47.6,-122.3", "51.5,-0.12", "35.68,139.69", "-33.87,151.2", "0,0", "89.9,10", "-89.9,-170", "40.7,-74.0"]
pts += ["%.4f,%.4f" % (r.uniform(-70, 75), r.uniform(-180, 180)) for _ in range(28)]
print(" ".join(pts))')
run() { # which binary snap geo
  local tag=$1 bin=$2 snap=$OUT/answers.snap i=0
  ln -sfn "$(realpath "$3")" "$snap"
  for p in $points; do
    i=$((i+1))
    "$bin" nearest --near "$p" -k 10 --data "$snap" --format json --now $NOW > "$OUT/$tag/snap-$i.json" 2>&1
    "$bin" nearest --near "$p" -k 10 --data "$snap" --format json --now $NOW --open-now --where drive_through=yes > "$OUT/$tag/snap-open-$i.json" 2>&1
    [ $i -le $GEO_POINTS ] || continue
    "$bin" nearest --near "$p" -k 10 --data "$GEO" --format json --now $NOW > "$OUT/$tag/geo-$i.json" 2>&1
    "$bin" nearest --near "$p" -k 10 --data "$GEO" --format json --now $NOW --open-now > "$OUT/$tag/geo-open-$i.json" 2>&1
  done
  "$bin" validate --data "$GEO" > "$OUT/$tag/validate-geo.txt" 2>&1
  "$bin" info --data "$GEO" --format json > "$OUT/$tag/info-geo.json" 2>&1
  "$bin" validate --data "$snap" > "$OUT/$tag/validate-snap.txt" 2>&1
  "$bin" info --data "$snap" --format json > "$OUT/$tag/info-snap.json" 2>&1
}
run base "$BASE" "$BSNAP"
run new "$NEW" "$NSNAP"
rm -f "$OUT/answers.snap"
diff -r "$OUT/base" "$OUT/new" && echo "IDENTICAL: $(ls $OUT/new | wc -l) outputs"

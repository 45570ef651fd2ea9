#!/bin/bash
# copies.sh DATA OUT K: OUT holds the corpus DATA (a folder with a
# wra.toml laid out as data/'s) copied K times, the servers of copy k
# renamed SERVER-kNN (copy 1 keeps its names), so that every copy is new
# stacks: in the paths of the reports and in the server and report
# columns of records/*.csv and memory/*.csv. Calibration files are
# copied once. Files are hard links where their text is unchanged.
set -euo pipefail
SRC=$1 OUT=$2 K=$3
rm -rf "$OUT"; mkdir -p "$OUT/records" "$OUT/memory"
cp "$SRC/wra.toml" "$OUT/"
cp -r "$SRC/calibration" "$OUT/"
servers=$(ls "$SRC/ladder/t1")
for k in $(seq 1 "$K"); do
  suf=$(printf -- "-k%02d" "$k"); [ "$k" = 1 ] && suf=""
  expr=""
  for s in $servers; do expr="$expr;s#,$s,#,$s$suf,#g;s#^$s,#$s$suf,#;s#/$s/#/$s$suf/#g"; done
  expr=${expr#;}
  for f in "$SRC"/records/*.csv; do sed -e "$expr" "$f" > "$OUT/records/$(basename "$f" .csv)$suf.csv"; done
  for f in "$SRC"/memory/*.csv; do sed -e "$expr" "$f" > "$OUT/memory/$(basename "$f" .csv)$suf.csv"; done
  (cd "$SRC" && find wrk2 tools waiting ladder -type f) | while read -r f; do
    g=$(echo "$f" | sed -e "$expr")
    mkdir -p "$OUT/$(dirname "$g")"
    ln "$SRC/$f" "$OUT/$g" 2>/dev/null || cp "$SRC/$f" "$OUT/$g"
  done
done

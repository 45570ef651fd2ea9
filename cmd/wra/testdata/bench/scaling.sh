#!/bin/sh
# Time of wra analyze against corpus size.
#
#   cmd/wra/testdata/bench/scaling.sh WRA CORPUS OUT [FACTORS]
#
# WRA is a built wra binary; CORPUS a folder of records with its wra.toml
# (data/, without data/harness); OUT a folder for the copies, stores,
# reports and results.csv; FACTORS the corpus sizes, "1 10 100" unless
# given. For factor k, OUT/kx holds k copies of CORPUS (c001, c002, ...,
# each with the corpus's wra.toml, so each gets the same labels), and
# three runs of wra analyze over all of them are timed:
#
#   cold       a new store: ingest and analysis
#   warm       the store ingested, the report folder removed: hashing
#              every file (all unchanged) and the whole analysis
#   unchanged  the store and the report as the last run left them: the
#              report is re-used
#
# warm and unchanged are repeated REPEAT times (3 unless set). Each line of
# results.csv has the wall, user and system seconds and the peak RSS of
# one run, as /usr/bin/time measured them. Then plot it:
#
#   go run ./cmd/wra/testdata/bench/plot OUT/results.csv cmd/wra/testdata/bench/scaling.svg
set -eu
wra=$(realpath "$1")
corpus=$(realpath "$2")
out=$3
factors=${4:-1 10 100}
repeat=${REPEAT:-3}
mkdir -p "$out"
out=$(realpath "$out")
res=$out/results.csv
echo "factor,files,mb,phase,wall_s,user_s,sys_s,rss_mb" > "$res"
for k in $factors; do
	dir=$out/${k}x
	if [ ! -f "$dir/.complete" ]; then
		rm -rf "$dir"
		mkdir -p "$dir"
		i=1
		while [ "$i" -le "$k" ]; do
			cp -r "$corpus" "$dir/$(printf c%03d "$i")"
			i=$((i + 1))
		done
		touch "$dir/.complete"
	fi
	files=$(find "$dir" -type f ! -name '.*' ! -name wra.toml | wc -l)
	mb=$(du -sm "$dir" | cut -f1)
	db=$out/${k}x.duckdb
	rep=$out/${k}x-report
	rm -f "$db" "$db.wal"
	rm -rf "$rep"
	run() {
		phase=$1
		/usr/bin/time -f "%e,%U,%S,%M" -o "$out/time.txt" \
			"$wra" --db "$db" --quiet analyze --format csv --out "$rep" "$dir"/c* > /dev/null 2> "$out/stderr.txt" || {
			code=$?
			# 3: some files were not records wra reads; the rest is timed.
			[ "$code" -eq 3 ] || { cat "$out/stderr.txt" >&2; exit "$code"; }
		}
		IFS=, read -r wall user sys rss < "$out/time.txt"
		echo "$k,$files,$mb,$phase,$wall,$user,$sys,$(awk "BEGIN{print $rss/1024}")" >> "$res"
		echo "${k}x $phase: ${wall}s wall, ${user}s user, ${sys}s sys, $rss KiB" >&2
	}
	run cold
	n=1
	while [ "$n" -le "$repeat" ]; do
		rm -rf "$rep"
		run warm
		n=$((n + 1))
	done
	n=1
	while [ "$n" -le "$repeat" ]; do
		run unchanged
		n=$((n + 1))
	done
done

// Command csvfolder writes a folder of gzipped k6 CSV point streams for
// the folder benchmark: FILES streams (30 unless given), each the points
// of a real k6 --out csv capture repeated REPEAT times (16 unless given),
// every copy's Unix-second timestamps shifted past the one before, in
// OUT/s<i>/srv<j>/points.csv.gz:
//
//	go run ./cmd/wra/testdata/bench/csvfolder OUT [FILES [REPEAT]]
//	WRA_BENCH_FOLDER=$PWD/OUT CGO_ENABLED=1 go test ./model/store -run '^$' -bench K6Folder -benchtime 1x
package main

import (
	"compress/gzip"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// capture is the k6 CSV stream copied: 14,034 points of a constant
// arrival rate test, its timestamps in seconds.
const capture = "ingest/testdata/k6/k6_constant_go2_ping_points.csv"

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "csvfolder:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) < 1 || len(args) > 3 {
		return fmt.Errorf("usage: csvfolder OUT [FILES [REPEAT]]")
	}
	counts := []int{30, 16}
	for i, a := range args[1:] {
		n, err := strconv.Atoi(a)
		if err != nil || n < 1 {
			return fmt.Errorf("%q: want a count of 1 or more", a)
		}
		counts[i] = n
	}
	f, err := os.Open(capture)
	if err != nil {
		return fmt.Errorf("%w (run it from the repository's root)", err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", capture, err)
	}
	head, body := rows[0], rows[1:]
	first, last := int64(1<<62), int64(0)
	for _, r := range body {
		ts, err := strconv.ParseInt(r[1], 10, 64)
		if err != nil {
			return fmt.Errorf("%s: timestamp %q: %w", capture, r[1], err)
		}
		first, last = min(first, ts), max(last, ts)
	}
	span := last - first + 1
	for i := range counts[0] {
		if err := write(filepath.Join(args[0], fmt.Sprintf("s%d", i/10), fmt.Sprintf("srv%d", i%10), "points.csv.gz"),
			head, body, int64(i*counts[1]), counts[1], span); err != nil {
			return err
		}
	}
	return nil
}

// write writes one stream: the body repeat times, copy k shifted by
// (from + k) spans.
func write(path string, head []string, body [][]string, from int64, repeat int, span int64) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	zw := gzip.NewWriter(f)
	w := csv.NewWriter(zw)
	w.Write(head)
	row := make([]string, len(head))
	for k := range int64(repeat) {
		for _, r := range body {
			copy(row, r)
			ts, _ := strconv.ParseInt(r[1], 10, 64)
			row[1] = strconv.FormatInt(ts+(from+k)*span, 10)
			w.Write(row)
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return err
	}
	if err := zw.Close(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/wra-bench/wra/ingest"
	"github.com/wra-bench/wra/model/store"
	"github.com/wra-bench/wra/report/analyze"
)

// The analysis cache: wra analyze keeps, in its output folder, the key of
// what it was made from and its printed tables in every format. A later
// run whose key is the same (the same store content as wra wrote it, the
// same options, the same wra binary) prints them and leaves the folder as
// it is.
const (
	cacheKeyFile = ingest.ReportMarker
	cacheNotes   = ".wra-analysis-notes"
)

func cacheStdoutFile(shown string) string { return ".wra-analysis-stdout." + shown }

// analysisKey identifies an analysis (analyze.CacheKey): the store's
// fingerprint, the whole options, and this program (its size and
// modification time, which change with every build); "" (never cache)
// where the program cannot be known.
func analysisKey(ctx context.Context, st *store.Store, opts analyze.Options) (string, error) {
	fp, err := st.Fingerprint(ctx)
	if err != nil {
		return "", err
	}
	exe, err := os.Executable()
	if err != nil {
		return "", nil
	}
	info, err := os.Stat(exe)
	if err != nil {
		return "", nil
	}
	return analyze.CacheKey(fp, fmt.Sprintf("%d %d", info.Size(), info.ModTime().UnixNano()), opts), nil
}

type cached struct{ stdout, notes string }

// readCache returns the cached output of an analysis with this key.
func readCache(out, key string, shown string) (cached, bool) {
	if key == "" {
		return cached{}, false
	}
	k, err := os.ReadFile(filepath.Join(out, cacheKeyFile))
	if err != nil || strings.TrimSpace(string(k)) != key {
		return cached{}, false
	}
	if _, err := os.Stat(filepath.Join(out, "index.html")); err != nil {
		return cached{}, false
	}
	stdout, err := os.ReadFile(filepath.Join(out, cacheStdoutFile(shown)))
	if err != nil {
		return cached{}, false
	}
	notes, err := os.ReadFile(filepath.Join(out, cacheNotes))
	if err != nil {
		return cached{}, false
	}
	return cached{string(stdout), string(notes)}, true
}

// writeCache writes the key and the printed output in every format.
func writeCache(dir, key string, res *analyze.Result) error {
	if key == "" {
		return nil
	}
	var notes bytes.Buffer
	for _, shown := range append(formatNames(), briefStdout) {
		var b bytes.Buffer
		notes.Reset()
		if err := printAnalysis(&b, &notes, res, shown); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, cacheStdoutFile(shown)), b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, cacheNotes), notes.Bytes(), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, cacheKeyFile), []byte(key+"\n"), 0o644)
}

// analyzeStore analyzes the store and closes it before the report is
// drawn: what DuckDB holds for the analysis's queries (about 100 MiB at
// 16 copies of data/) is given back instead of lying beside the plots.
func analyzeStore(ctx context.Context, st *store.Store, opts analyze.Options) (*analyze.Result, error) {
	res, err := analyze.Analyze(ctx, st, opts)
	if cerr := st.Close(); err == nil && cerr != nil {
		return nil, cerr
	}
	return res, err
}

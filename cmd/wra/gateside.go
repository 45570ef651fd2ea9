package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/wra-bench/wra/ingest"
	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/model/store"
	"github.com/wra-bench/wra/report/compare"
)

// gateLabels reads the two sides of a gate from the store (--db), told
// apart by a label.
func (g *globals) gateLabels(ctx context.Context, sides store.CompareSides, rule model.DesignRule) ([]*model.CompareRun, error) {
	st, err := g.openStore(ctx, true)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	runs, err := compare.Runs(ctx, st, sides, rule)
	if err != nil {
		return nil, err
	}
	n := map[string]int{}
	for _, r := range runs {
		n[r.Side]++
	}
	for side, name := range map[string]string{"base": sides.Base, "vs": sides.Vs} {
		if n[side] == 0 {
			return nil, fmt.Errorf("no runs with %s = %q", sides.By, name)
		}
	}
	return runs, nil
}

// gateSides reads every run of the baseline's path and of the
// candidate's. Runs of two paths never share a trial: their blocks are
// left out, so that the U test compares them.
func (g *globals) gateSides(ctx context.Context, e *env, base, vs string, rule model.DesignRule) ([]*model.CompareRun, error) {
	tmp, err := os.MkdirTemp("", "wra-gate-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	var out []*model.CompareRun
	for _, side := range []struct{ name, path string }{{"base", base}, {"vs", vs}} {
		runs, err := g.sideRuns(ctx, e, side.path, filepath.Join(tmp, side.name+".duckdb"), store.CompareSides{All: side.name}, rule)
		if err != nil {
			return nil, err
		}
		if len(runs) == 0 {
			return nil, fmt.Errorf("%s: no runs", side.path)
		}
		for _, r := range runs {
			r.Block = ""
		}
		out = append(out, runs...)
	}
	return out, nil
}

// sideRuns opens one side: a store as it is; a Parquet export loaded
// into a new store at tmp; a folder of raw records ingested into one.
func (g *globals) sideRuns(ctx context.Context, e *env, path, tmp string, sides store.CompareSides, rule model.DesignRule) ([]*model.CompareRun, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	var st *store.Store
	if fi.Mode().IsRegular() {
		st, err = store.Open(ctx, path, store.Options{ReadOnly: true, MemoryLimit: g.memoryLimit})
	} else {
		st, err = store.Open(ctx, tmp, store.Options{MemoryLimit: g.memoryLimit})
	}
	if err != nil {
		return nil, err
	}
	defer st.Close()
	switch {
	case fi.Mode().IsRegular():
	case store.IsExport(path):
		err = st.ImportExport(ctx, path)
	default:
		var res *ingest.Result
		res, err = g.ingest(ctx, e, st, []string{path}, ingest.Options{})
		if err == nil && len(res.Files) > 0 && res.Count(ingest.Failed) == len(res.Files) {
			err = fmt.Errorf("%s: no file could be read", path)
		}
	}
	if err != nil {
		return nil, err
	}
	return compare.Runs(ctx, st, sides, rule)
}

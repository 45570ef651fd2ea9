package main

import (
	"os"

	"github.com/wra-bench/wra/ingest"
	"github.com/wra-bench/wra/report/analyze"
	"github.com/wra-bench/wra/report/projection"
)

// manifestLayouts reads the [[tables]] of each folder's wra.toml, in the
// order given: the layouts wra analyze publishes beside its own tables.
// A metric is a cell of one figure, as wra table --metric makes it.
func manifestLayouts(paths []string) ([]analyze.Layout, error) {
	mans, _, err := folderManifests(paths)
	if err != nil {
		return nil, err
	}
	var out []analyze.Layout
	for _, m := range mans {
		for _, t := range m.Tables {
			cell := t.Cell
			if t.Metric != "" {
				cell = "{" + t.Metric + "}"
			}
			var figs []projection.Figure
			for _, f := range t.Figures {
				figs = append(figs, projection.Figure{Title: f.Title, Cell: f.Cell, Name: f.Name})
			}
			out = append(out, analyze.Layout{Where: t.Where, Spec: projection.Spec{
				Title: t.Title, Cell: cell, Figures: figs, Rows: t.Rows, Cols: t.Cols, Sort: t.Sort, Spread: t.Spread, NoSplit: m.NoSplit, Filter: t.Filter}})
		}
	}
	return out, nil
}

// folderManifests reads the wra.toml of each folder among paths (files
// have none), in the order given, with the folders they belong to.
func folderManifests(paths []string) ([]*ingest.Manifest, []string, error) {
	var mans []*ingest.Manifest
	var dirs []string
	for _, p := range paths {
		if info, err := os.Stat(p); err != nil || !info.IsDir() {
			continue
		}
		m, err := ingest.ReadManifest(p)
		if err != nil {
			return nil, nil, err
		}
		mans, dirs = append(mans, m), append(dirs, p)
	}
	return mans, dirs, nil
}

package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/wra-bench/wra/model/store"
	"github.com/wra-bench/wra/report"
)

// What the commands share to print and write.

// writeTable writes a table to stdout; for CSV and JSON its notes go to
// stderr as footnotes (unless --quiet), so that stdout stays parseable.
func writeTable(e *env, g *globals, f report.Format, d *report.Data) error {
	machine := f == report.CSV || f == report.JSON
	notes := d.Notes
	if machine {
		d.Notes = nil
	}
	if err := report.Write(e.stdout, d, f); err != nil {
		return err
	}
	if machine && !g.quiet {
		for i, n := range notes {
			if _, err := fmt.Fprintf(e.stderr, "wra: %s %s\n", report.Footmark(i+1), n); err != nil {
				return err
			}
		}
	}
	return nil
}

// tableData is a store's result as a report table.
func tableData(t *store.Table) *report.Data {
	return &report.Data{Columns: report.Columns(t.Names()...), Rows: t.Rows}
}

// writeFileAtomic writes a file through a temporary file in the same
// folder, so that a failed write leaves no half file.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// writePlot renders a figure into an SVG or PNG file, by the file's
// extension.
func writePlot(path string, f report.Figure) error {
	var buf bytes.Buffer
	var err error
	if strings.ToLower(filepath.Ext(path)) == ".png" {
		err = report.WritePNG(&buf, f)
	} else {
		err = report.WriteSVG(&buf, f)
	}
	if err != nil {
		return err
	}
	return writeFileAtomic(path, buf.Bytes())
}

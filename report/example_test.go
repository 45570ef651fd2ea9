package report_test

import (
	"bytes"
	"fmt"
	"log"

	"github.com/wra-bench/wra/report"
)

// A report page from a table and a plot: render each figure with SVG
// (and WritePNG for a file beside the page), give the SVG to a section
// of the Page, and write the page. A palette built from every server of
// the report keeps each server's colour the same in every plot.
func ExampleWritePage() {
	palette := report.NewPalette("go-gmp1", "nginx")
	svg, err := report.SVG(&report.BarChart{
		Title:  "Throughput, test ping",
		XLabel: "server",
		YLabel: "throughput (requests/s)",
		Groups: []report.BarGroup{
			{Label: "go-gmp1", Values: []float64{18479.79, 27022.04, 29756.64}, Median: 27022.04},
			{Label: "nginx", Values: []float64{38133.86, 37695.68, 51179.5}, Median: 38133.86},
		},
		Palette: palette,
	})
	if err != nil {
		log.Fatal(err)
	}
	table := &report.Data{
		Title:   "Rounds, test ping",
		Columns: report.Columns("server", "rps"),
		Rows:    [][]any{{"go-gmp1", 27022.04}, {"nginx", report.Cell{Value: 38133.86, Best: true}}},
		RowSources: [][]report.Source{
			{{File: "records/records.csv", Line: 2}, {File: "records/records.csv", Line: 32}, {File: "records/records.csv", Line: 34}},
			{{File: "records/records.csv", Line: 14}, {File: "records/records.csv", Line: 20}, {File: "records/records.csv", Line: 46}},
		},
	}
	page := &report.Page{
		Title: "Benchmark report",
		Intro: []string{"Corpus: records/records.csv."},
		Sections: []report.Section{{
			Title:  "Throughput",
			Tables: []*report.Data{table},
			Plots:  []report.PagePlot{{Caption: "Median of 3 rounds, with each round as a dot", SVG: svg}},
		}},
		Notes: []string{"3 rounds per server."},
	}
	var b bytes.Buffer
	if err := report.WritePage(&b, page); err != nil {
		log.Fatal(err)
	}
	fmt.Println(bytes.Contains(b.Bytes(), []byte(`<figure id="s1-p1">`)))
	// Output: true
}

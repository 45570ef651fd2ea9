package analyze

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/wra-bench/wra/report"
)

// TestWriteFilesLinksPlots: a page written with its plots linked refers
// to each plot's SVG file under plots/ by a path relative to the page,
// so that every <img src> is the plot's SVG beside the page, and holds
// no inline SVG; written inline, the same result gives a page with one
// <svg> per plot and no <img>; each mode gives the same bytes twice.
func TestWriteFilesLinksPlots(t *testing.T) {
	bars := func(title string) report.Figure {
		return &report.BarChart{Title: title, XLabel: "server", YLabel: "requests/s",
			Groups: []report.BarGroup{{Label: "a", Values: []float64{1, 2, 3}}, {Label: "b", Values: []float64{2, 3, 4}}}}
	}
	res := &Result{Sections: []*Section{
		{ID: "rounds", Title: "Throughput by rounds", Figures: []Figure{
			{Name: "throughput-ping", Caption: "Throughput of ping", Figure: bars("ping")},
			{Name: "throughput-db", Caption: "Throughput of db", Figure: bars("db")},
		}},
		{ID: "cost", Title: "Cost", Figures: []Figure{{Name: "cost", Caption: "Cost", Figure: bars("cost")}}},
	}}
	write := func(mode report.InlinePlots) (string, string) {
		dir := t.TempDir()
		if err := WriteFiles(dir, res, mode); err != nil {
			t.Fatal(err)
		}
		page, err := os.ReadFile(filepath.Join(dir, "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		again := t.TempDir()
		if err := WriteFiles(again, res, mode); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(filepath.Join(again, "index.html")); !bytes.Equal(b, page) {
			t.Errorf("%s: two writings of the same result differ", mode)
		}
		return dir, string(page)
	}
	dir, page := write(report.InlineNever)
	srcs := regexp.MustCompile(`<img src="([^"]+)"`).FindAllStringSubmatch(page, -1)
	if len(srcs) != 3 || strings.Contains(page, "<svg") {
		t.Fatalf("linked page has %d <img> and %d <svg>, want 3 and 0", len(srcs), strings.Count(page, "<svg"))
	}
	for i, want := range []string{"plots/throughput-ping.svg", "plots/throughput-db.svg", "plots/cost.svg"} {
		if srcs[i][1] != want {
			t.Errorf("<img> %d: src %q, want %q", i+1, srcs[i][1], want)
		}
		svg, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(srcs[i][1])))
		if err != nil || !bytes.Contains(svg, []byte("<svg")) {
			t.Errorf("<img src=%q> is no SVG beside the page: %v", srcs[i][1], err)
		}
	}
	_, page = write(report.InlineAlways)
	if n := strings.Count(page, "<svg "); n != 3 || strings.Contains(page, "<img") {
		t.Errorf("inline page has %d <svg> and %d <img>, want 3 and 0", n, strings.Count(page, "<img"))
	}
}

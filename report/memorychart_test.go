package report

import (
	"slices"
	"testing"

	"gonum.org/v1/plot/vg/draw"
)

// A memory chart's series of one server on two databases are two legend
// entries named by their labels, in the server's colour, the second with
// a dashed line; a series without a label is named by its server.
func TestMemoryLegendByLabel(t *testing.T) {
	pts := []MemoryPoint{{100, 110}, {400, 140}}
	fit := &MemoryFit{SlopeMBPerRequest: 0.1, InterceptMB: 100}
	c := &MemoryChart{Title: "m", Series: []MemorySeries{
		{Server: "go", Label: "go (mysql)", Points: pts, Fit: fit},
		{Server: "go", Label: "go (pg)", Points: pts, Fit: fit},
		{Server: "node", Points: pts},
	}}
	fg, err := c.build()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"go (mysql): 100 MiB per 1000 requests", "go (pg): 100 MiB per 1000 requests", "node"}
	if len(fg.legend) != len(want) || slices.ContainsFunc(want, func(w string) bool {
		return !slices.ContainsFunc(fg.legend, func(e legendEntry) bool { return e.name == w })
	}) {
		t.Errorf("legend %+v, want entries %q", fg.legend, want)
	}
	line := func(i int) draw.LineStyle { return draw.LineStyle(fg.legend[i].thumbs[0].(lineThumb)) }
	if line(0).Color != line(1).Color || line(0).Dashes != nil || line(1).Dashes == nil {
		t.Errorf("go's two databases: lines %+v and %+v, want one colour, the second dashed", line(0), line(1))
	}
}

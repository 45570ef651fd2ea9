package analyze_test

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/wra-bench/wra/cost"
	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/report/analyze"
)

// memoryOnTwoDatabases is a memory series of the server go on pg, 0.1 MiB
// per waiting request over a base of 100 MiB, and on mysql, 0.2 MiB per
// request over 40 MiB: the stacks of fixedRecords.
const memoryOnTwoDatabases = `server,database,pass,concurrency,rss_mb
go,pg,1,100,110
go,pg,1,200,120
go,pg,1,400,140
go,mysql,1,100,60
go,mysql,1,200,80
go,mysql,1,400,120
`

// withoutColumn is text with its column named col left out.
func withoutColumn(t *testing.T, text, col string) string {
	t.Helper()
	var out []string
	i := -1
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		f := strings.Split(line, ",")
		if i < 0 {
			if i = slices.Index(f, col); i < 0 {
				t.Fatalf("no column %s in %q", col, line)
			}
		}
		out = append(out, strings.Join(slices.Delete(f, i, i+1), ","))
	}
	return strings.Join(out, "\n") + "\n"
}

// memoryFigure is the memory chart of the memory section.
func memoryFigure(t *testing.T, sec *analyze.Section) *report.MemoryChart {
	t.Helper()
	for _, f := range sec.Figures {
		if c, ok := f.Figure.(*report.MemoryChart); ok {
			return c
		}
	}
	t.Fatalf("memory section has no memory chart: %+v", sec.Figures)
	return nil
}

// A server measured on two databases has a memory series on each: two
// rows of the memory table, two lines of the plot, and each stack priced
// with its own database's line, never one slope over both.
func TestMemorySeriesPerDatabase(t *testing.T) {
	st := newStore(t, nil, map[string]string{"records/fixed.csv": fixedRecords, "memory/waiting.csv": memoryOnTwoDatabases})
	opts := analyze.DefaultOptions()
	res := run(t, st, opts)
	d := table(t, section(t, res, "memory"), "Memory growth")
	if len(d.Rows) != 2 {
		t.Fatalf("memory table has %d rows, want one per database: %v", len(d.Rows), d.Rows)
	}
	const per1000 = 1000.0 / 1024 // MiB per request -> GiB per 1000 requests
	for db, want := range map[string]float64{"pg": 0.1 * per1000, "mysql": 0.2 * per1000} {
		i := rowOf(t, d, "database", db)
		if got := num(t, d, i, "pooled_slope_gib_per_1000"); math.Abs(got-want) > 1e-12 {
			t.Errorf("%s: pooled slope %v GiB per 1000, want %v", db, got, want)
		}
		if got := num(t, d, i, "points"); got != 3 {
			t.Errorf("%s: %v points, want its own 3", db, got)
		}
	}
	var labels []string
	for _, s := range memoryFigure(t, section(t, res, "memory")).Series {
		labels = append(labels, s.Label)
		if s.Server != "go" {
			t.Errorf("series %q of server %q, want go (its colour)", s.Label, s.Server)
		}
	}
	if want := []string{"go (mysql)", "go (pg)"}; !slices.Equal(labels, want) {
		t.Errorf("plot series %q, want %q", labels, want)
	}

	priced, notes, err := cost.Build(context.Background(), st, cost.Request{Rule: opts.DesignRule(),
		Workload: cost.Workload{RPS: opts.RPS, Utilisation: opts.Util}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]cost.Memory{"pg": cost.LinearMemory(100.0/1024, 0.1*per1000), "mysql": cost.LinearMemory(40.0/1024, 0.2*per1000)}
	if len(priced) != 2 {
		t.Fatalf("%d stacks priced, want 2: %+v", len(priced), priced)
	}
	for _, p := range priced {
		m, w := p.Stack.Memory, want[p.Stack.Database]
		if p.MemoryFrom != cost.MemoryFromSlope || m.Fixed || math.Abs(m.BaseGiB-w.BaseGiB) > 1e-12 || math.Abs(m.SlopeGiBPer1000-w.SlopeGiBPer1000) > 1e-12 {
			t.Errorf("%s: memory %+v from %q, want %+v from its own series", p.Stack.Database, m, p.MemoryFrom, w)
		}
	}
	for _, n := range notes {
		if strings.Contains(n, "names no database") {
			t.Errorf("note %q on series that name their database", n)
		}
	}
	c := table(t, section(t, res, "cost"), "Cost per month")
	if pg, mysql := num(t, c, rowOf(t, c, "database", "pg"), "stack_gib"), num(t, c, rowOf(t, c, "database", "mysql"), "stack_gib"); pg == mysql {
		t.Errorf("cost table: stack GiB %v on both databases, want each its own", pg)
	}
}

// The same series without its database column is one series of the
// server, as before: pooled over both databases into one line, which
// prices the server on each of them alike, as the note says.
func TestMemorySeriesWithoutDatabasePools(t *testing.T) {
	st := newStore(t, nil, map[string]string{"records/fixed.csv": fixedRecords, "memory/waiting.csv": withoutColumn(t, memoryOnTwoDatabases, "database")})
	opts := analyze.DefaultOptions()
	res := run(t, st, opts)
	d := table(t, section(t, res, "memory"), "Memory growth")
	if len(d.Rows) != 1 || num(t, d, 0, "points") != 6 {
		t.Fatalf("memory table %v, want one row of 6 points", d.Rows)
	}
	if slices.ContainsFunc(d.Columns, func(c report.Column) bool { return c.Name == "database" }) {
		t.Errorf("memory table has a database column: %v", d.Columns)
	}
	if s := memoryFigure(t, section(t, res, "memory")).Series; len(s) != 1 || s[0].Label != "go" {
		t.Errorf("plot series %+v, want one, go", s)
	}
	priced, notes, err := cost.Build(context.Background(), st, cost.Request{Rule: opts.DesignRule(),
		Workload: cost.Workload{RPS: opts.RPS, Utilisation: opts.Util}})
	if err != nil {
		t.Fatal(err)
	}
	if len(priced) != 2 || priced[0].Stack.Memory != priced[1].Stack.Memory || priced[0].MemoryFrom != cost.MemoryFromSlope {
		t.Errorf("stacks %+v, want both priced with the one pooled line", priced)
	}
	if want := "go: its memory series names no database, and prices it on each of mysql and pg alike"; !slices.Contains(notes, want) {
		t.Errorf("notes %q lack %q", notes, want)
	}
}

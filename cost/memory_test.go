package cost

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/wra-bench/wra/model"
)

// memorySource is a store of two stacks, java on postgresql and on mysql,
// and the memory series it is given with their pooled fits.
type memorySource struct {
	source
	series []model.MemorySeriesPoint
	slopes []model.MemorySlope
}

func (s memorySource) MemorySeries(context.Context) ([]model.MemorySeriesPoint, error) {
	return s.series, nil
}
func (s memorySource) MemorySlopes(context.Context) ([]model.MemorySlope, error) {
	return s.slopes, nil
}

// line is a memory series of java on database (none for ""), three
// points on base + slope × concurrency, with its pooled row.
func line(database string, baseMB, mbPerRequest float64) ([]model.MemorySeriesPoint, model.MemorySlope) {
	var pts []model.MemorySeriesPoint
	for _, c := range []float64{100, 200, 400} {
		pts = append(pts, model.MemorySeriesPoint{Server: "java", Database: database, Pass: 1, Concurrency: c, MemoryMB: baseMB + mbPerRequest*c})
	}
	return pts, model.MemorySlope{Server: "java", Database: database, Pass: -1, Pooled: true, SlopeGiBPer1000: mbPerRequest * 1000 / 1024,
		SlopeSEGiBPer1000: 0, InterceptGiB: baseMB / 1024, R2: 1, TheilSenGiBPer1000: mbPerRequest * 1000 / 1024, TheilSenInterceptGiB: baseMB / 1024, Points: 3}
}

// A stack takes the memory series of its server on its database; where
// there is none, the server's series that names no database, which
// stands for the server on every database.
func TestBuildMemoryOfItsDatabase(t *testing.T) {
	mysql := fallingCPU()
	for i := range mysql {
		mysql[i].Database = "mysql"
	}
	src := memorySource{source: source{groups: append(mysql, fallingCPU()...)}}
	for _, l := range []struct {
		database     string
		base, perReq float64
	}{{"", 50, 0.3}, {"postgresql", 100, 0.1}} {
		pts, row := line(l.database, l.base, l.perReq)
		src.series = append(src.series, pts...)
		src.slopes = append(src.slopes, row)
	}
	priced, notes, err := Build(context.Background(), src, Request{Workload: Workload{RPS: 1000, Utilisation: 0.6}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Memory{"postgresql": LinearMemory(100.0/1024, 0.1*1000/1024), "mysql": LinearMemory(50.0/1024, 0.3*1000/1024)}
	if len(priced) != 2 {
		t.Fatalf("%d stacks, want 2", len(priced))
	}
	for _, p := range priced {
		m, w := p.Stack.Memory, want[p.Stack.Database]
		if p.MemoryFrom != MemoryFromSlope || math.Abs(m.BaseGiB-w.BaseGiB) > 1e-15 || math.Abs(m.SlopeGiBPer1000-w.SlopeGiBPer1000) > 1e-15 {
			t.Errorf("%s: memory %+v from %q, want %+v", p.Stack.Database, m, p.MemoryFrom, w)
		}
	}
	// The series without a database prices one database only here: no
	// note that it prices two alike.
	if want := []string{"left out, no CPU per request measured: rust"}; !slices.Equal(notes, want) {
		t.Errorf("notes %q, want %q", notes, want)
	}

	// Without the postgresql series, the one series prices both, and
	// says so.
	src.series, src.slopes = src.series[:3], src.slopes[:1]
	priced, notes, err = Build(context.Background(), src, Request{Workload: Workload{RPS: 1000, Utilisation: 0.6}})
	if err != nil {
		t.Fatal(err)
	}
	if priced[0].Stack.Memory != priced[1].Stack.Memory || priced[0].Stack.Memory != want["mysql"] {
		t.Errorf("memories %+v and %+v, want both %+v", priced[0].Stack.Memory, priced[1].Stack.Memory, want["mysql"])
	}
	if n := "java: its memory series names no database, and prices it on each of mysql and postgresql alike"; !slices.Contains(notes, n) {
		t.Errorf("notes %q lack %q", notes, n)
	}
}

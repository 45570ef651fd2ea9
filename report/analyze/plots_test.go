package analyze_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/report/analyze"
)

// A k6 ladder (no target rate, a ladder's stages, a round) and two
// rounds of a bombardier run at full speed, of one test: the throughput
// plot draws the bombardier runs only; the ladder has its own plot. A k6 run at a
// constant rate gives summary percentiles: its spectrum is points.
func TestThroughputPlotsFullSpeedOnly(t *testing.T) {
	const ladder = `stages = "100:1s,100:10s,200:1s,200:10s,400:1s,400:10s,800:1s,800:10s"`
	st := newStore(t, nil, map[string]string{
		"wra.toml": "[[files]]\npattern = \"ladder/{server}/{test}.ndjson.gz\"\nlabels = { round = \"1\", tool = \"k6\", p95_threshold_ms = \"50\", " + ladder + " }\n" +
			"[[files]]\npattern = \"bombardier/r{round}/{server}/{test}-c{connections}.txt\"\nlabels = { tool = \"bombardier\" }\n" +
			"[[files]]\npattern = \"k6/{server}/{test}-r{target_rps}.txt\"\nlabels = { round = \"1\", tool = \"k6\" }\n",
		"ladder/go-pgx/one.ndjson.gz":      "@../../data/ladder/t1/go-pgx/page.ndjson.gz",
		"bombardier/r1/go-pgx/one-c16.txt": "@../../data/tools/t1/bombardier/go-pgx/one-c16.txt",
		"bombardier/r2/go-pgx/one-c16.txt": "@../../data/tools/t2/bombardier/go-pgx/one-c16.txt",
		"k6/go-pgx/one-r500.txt":           "@../../data/tools/t1/k6/go-pgx/one-r500.txt",
	})
	res := run(t, st, analyze.DefaultOptions())
	var series []string
	for _, f := range section(t, res, "rounds").Figures {
		for _, g := range f.Figure.(*report.BarChart).Groups {
			series = append(series, f.Name+" "+g.Series)
		}
	}
	if want := []string{"throughput-one one, bombardier, 16 connections"}; !slices.Equal(series, want) {
		t.Errorf("throughput bars %q, want %q", series, want)
	}
	var ladders []string
	for _, f := range section(t, res, "ladders").Figures {
		ladders = append(ladders, f.Name)
	}
	if !slices.Contains(ladders, "ladders") {
		t.Errorf("ladder plots %q, want the k6 ladder's own", ladders)
	}
	spectra := section(t, res, "spectra").Figures
	if len(spectra) != 1 {
		t.Fatalf("%d spectrum plots, want the k6 run's", len(spectra))
	}
	for _, sp := range spectra[0].Figure.(*report.SpectrumChart).Spectra {
		if !sp.Summary || len(sp.Points) > 9 {
			t.Errorf("k6 spectrum of %d points, summary %v: want a few summary percentiles", len(sp.Points), sp.Summary)
		}
	}
}

// Nine servers on two databases are more than one plot of lines holds:
// the spectra, the fixed-rate ladders and the achieved rates are split into a plot per
// database, each holding only its own; eight servers stay in one plot.
func TestPlotsSplitByDatabase(t *testing.T) {
	for _, n := range []int{8, 9} {
		files := map[string]string{
			"wra.toml": "[[files]]\npattern = \"wrk2/{server}/{database}/{test}-r{target_rps}.txt\"\nlabels = { round = \"1\" }\n",
		}
		for i := range n {
			db := []string{"mariadb", "postgresql"}[i%2]
			for _, rate := range []string{"1000", "2000"} {
				files[fmt.Sprintf("wrk2/s%d/%s/one-r%s.txt", i, db, rate)] = "@../../ingest/testdata/wrk2/wrk2_U_go2_wait5_R1000.txt"
			}
		}
		res := run(t, newStore(t, nil, files), analyze.DefaultOptions())
		var names []string
		for _, id := range []string{"spectra", "ladders", "achieved"} {
			for _, f := range section(t, res, id).Figures {
				names = append(names, f.Name)
				want := ""
				if n > 8 {
					want = f.Name[strings.LastIndex(f.Name, "-")+1:]
				}
				switch c := f.Figure.(type) {
				case *report.SpectrumChart:
					for _, sp := range c.Spectra {
						if want != "" && !strings.HasSuffix(sp.Label, want) {
							t.Errorf("%s holds %s", f.Name, sp.Label)
						}
					}
				case *report.LadderChart:
					for _, s := range c.Series {
						if want != "" && s.Database != want {
							t.Errorf("%s holds %s on %s", f.Name, s.Server, s.Database)
						}
					}
				case *report.RateChart:
					for _, s := range c.Series {
						if want != "" && s.Database != want {
							t.Errorf("%s holds %s on %s", f.Name, s.Server, s.Database)
						}
					}
				}
			}
		}
		want := []string{"spectrum-one-1000rps", "spectrum-one-2000rps", "ladders-fixed-rate", "achieved-one"}
		if n > 8 {
			want = []string{"spectrum-one-1000rps-mariadb", "spectrum-one-1000rps-postgresql", "spectrum-one-2000rps-mariadb", "spectrum-one-2000rps-postgresql",
				"ladders-fixed-rate-mariadb", "ladders-fixed-rate-postgresql", "achieved-one-mariadb", "achieved-one-postgresql"}
		}
		if !slices.Equal(names, want) {
			t.Errorf("%d servers: plots %q, want %q", n, names, want)
		}
	}
}

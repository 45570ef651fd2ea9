package analyze_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/report/analyze"
)

// The manifest's names and order of the servers reach the store with the
// runs, and the tables show them: people read the names in the manifest's
// order, machines the values.
func TestManifestNamesAndOrder(t *testing.T) {
	st := newStore(t, nil, map[string]string{
		"records.csv": "@../../ingest/testdata/records/records.csv",
		"wra.toml": `[labels.server]
order = ["nginx", "go-gmp2"]
names = { nginx = "nginx 1.27 (static)", go-gmp2 = "Go 1.25 · GOMAXPROCS=2" }
`,
	})
	disp, err := st.LabelDisplay(context.Background())
	if err != nil || disp.Name("server", "nginx") != "nginx 1.27 (static)" || !disp.Ordered("server") {
		t.Fatalf("display %+v, %v", disp, err)
	}
	res := run(t, st, analyze.DefaultOptions())
	d := table(t, section(t, res, "rounds"), "Rounds: ping")
	var servers []string
	for i := range d.Rows {
		s := cell(t, d, i, "server").(string)
		if len(servers) == 0 || servers[len(servers)-1] != s {
			servers = append(servers, s)
		}
	}
	if strings.Join(servers, ",") != "nginx,go-gmp2,go-gmp1" {
		t.Errorf("servers in order %v, want nginx, go-gmp2, then the unlisted go-gmp1", servers)
	}
	var md, csv strings.Builder
	if err := report.Write(&md, d, report.Markdown); err != nil {
		t.Fatal(err)
	}
	if err := report.Write(&csv, d, report.CSV); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "| nginx 1.27 (static) |") || !strings.Contains(md.String(), "| Go 1.25 · GOMAXPROCS=2 |") ||
		!strings.Contains(md.String(), "| go-gmp1 |") {
		t.Errorf("markdown:\n%s", md.String())
	}
	if !strings.Contains(csv.String(), "\nnginx,") || strings.Contains(csv.String(), "nginx 1.27") {
		t.Errorf("csv:\n%s", csv.String())
	}
}

// The manifest's names reach the plots and the summary: the throughput
// plot's categories, the legend of the achieved rates and the summary's
// sentences name the server "Go 1.26 · net/http" and the database
// "PostgreSQL 17", and the plots draw the servers in the manifest's order.
func TestManifestNamesInPlotsAndSummary(t *testing.T) {
	var b strings.Builder
	b.WriteString("utc,server,database,round,test,connections,target_rps,requests_per_s,latency_p99_ms,responses_2xx,requests,errors,duration_s,cpu_server_s,cpu_db_s\n")
	for i, r := range []struct {
		server string
		rps    float64
	}{{"go", 1000}, {"go", 1010}, {"go", 990}, {"node", 500}, {"node", 505}, {"node", 495}} {
		fmt.Fprintf(&b, "2026-06-01T10:%02d:00Z,%s,postgresql,%d,one,16,,%g,2,30000,30000,0,60,,\n", i, r.server, i%3+1, r.rps)
		// and a fixed-rate run of each round, for a plot with a legend
		fmt.Fprintf(&b, "2026-06-01T11:%02d:00Z,%s,postgresql,%d,one,16,400,400,2,24000,24000,0,60,%g,%g\n", i, r.server, i%3+1, 1e3/r.rps, 2e3/r.rps)
	}
	st := newStore(t, nil, map[string]string{
		"records.csv": b.String(),
		"wra.toml": `[labels.server]
order = ["node", "go"]
names = { go = "Go 1.26 · net/http" }

[labels.database]
names = { postgresql = "PostgreSQL 17" }
`,
	})
	res := run(t, st, analyze.DefaultOptions())
	var sentence, dbLine string
	for _, bl := range section(t, res, "summary").Bullets {
		if strings.HasPrefix(bl.Lead, "Throughput") {
			sentence = bl.Text
		}
		for _, l := range bl.Lines {
			if strings.HasPrefix(l, "database CPU") {
				dbLine = l
			}
		}
	}
	if !strings.HasPrefix(sentence, "Go 1.26 · net/http (PostgreSQL 17) serves the most") {
		t.Errorf("summary: %q, want the display names of go and postgresql", sentence)
	}
	if !strings.HasPrefix(dbLine, "database CPU on PostgreSQL 17: Go 1.26 · net/http costs it least") {
		t.Errorf("summary: %q, want the database's display name", dbLine)
	}
	figs := section(t, res, "rounds").Figures
	if len(figs) != 1 {
		t.Fatalf("%d throughput plots", len(figs))
	}
	bars := figs[0].Figure.(*report.BarChart)
	var labels []string
	for _, g := range bars.Groups {
		labels = append(labels, g.Label)
	}
	if strings.Join(labels, ",") != "node,Go 1.26 · net/http" {
		t.Errorf("bars %q, want node then Go 1.26 · net/http (the manifest's order and names)", labels)
	}
	svg, err := report.SVG(figs[0].Figure)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(svg), "Go 1.26 · net/http") {
		t.Errorf("the plot does not draw the name")
	}
	rates := section(t, res, "achieved").Figures
	if len(rates) != 1 {
		t.Fatalf("%d plots of achieved rates", len(rates))
	}
	series := rates[0].Figure.(*report.RateChart).Series
	if len(series) != 2 || series[0].Server != "node" || series[1].Label != "Go 1.26 · net/http: one, records, fixed rate" {
		t.Errorf("series %+v", series)
	}
	// The legend says what the series share once, then each server.
	if svg, err = report.SVG(rates[0].Figure); err != nil || !strings.Contains(string(svg), ">Go 1.26 · net/http<") || strings.Contains(string(svg), ">go<") {
		t.Errorf("the legend does not name go by its name (%v)", err)
	}
}

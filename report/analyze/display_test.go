package analyze_test

import (
	"context"
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

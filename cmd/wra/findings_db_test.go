package main

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A split compares servers at equal load: one test and rate on one
// database. Four servers of four passes whose database CPU per request is about 0.5 ms
// on PostgreSQL and about 1.2 ms on MariaDB are not split by it; a
// PostgreSQL server at twice its neighbour's cost is, at loads named with
// their database.
func TestFindingsSplitWithinDatabase(t *testing.T) {
	corpus := func(pgB float64) string {
		var b strings.Builder
		b.WriteString("utc,server,database,round,test,connections,target_rps,requests_per_s,latency_p99_ms,responses_2xx,requests,errors,cpu_server_s,cpu_db_s,duration_s\n")
		servers := []struct {
			name, db string
			dbMS     float64
		}{{"pg-a", "postgresql", 0.5}, {"pg-b", "postgresql", pgB}, {"my-a", "mariadb", 1.2}, {"my-b", "mariadb", 1.21}}
		jitter := []float64{0.99, 1, 1.01}
		minute := 0
		for _, rate := range []int{250, 500} {
			for round := 1; round <= 4; round++ {
				for i, s := range servers {
					n := rate * 60
					j := jitter[(round+i)%3]
					fmt.Fprintf(&b, "2026-06-01T%02d:%02d:00Z,%s,%s,%d,one,16,%d,%d,5,%d,%d,0,%.4f,%.4f,60\n",
						10+minute/60, minute%60, s.name, s.db, round, rate, rate, n, n, float64(n)*0.0001*j, float64(n)*s.dbMS/1000*j)
					minute++
				}
			}
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "records.csv"), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	splits := func(dir string) []string {
		r := wra(t, ingested(t, dir), "--quiet", "--format", "csv", "findings")
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		rows, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		col := map[string]int{}
		for i, c := range rows[0] {
			col[c] = i
		}
		var out []string
		for _, row := range rows[1:] {
			if row[col["rule_id"]] == "split" {
				out = append(out, row[col["finding"]])
			}
		}
		return out
	}
	if got := splits(corpus(0.51)); len(got) != 0 {
		t.Errorf("servers on two databases split by their databases' CPU:\n%s", strings.Join(got, "\n"))
	}
	got := splits(corpus(1.0))
	if len(got) != 1 || !strings.Contains(got[0], "{pg-a} and {pg-b}") || !strings.Contains(got[0], "one, 250 requests/s on postgresql") || strings.Contains(got[0], "my-a") {
		t.Errorf("want one split of pg-a from pg-b on postgresql, got:\n%s", strings.Join(got, "\n"))
	}
}

package projection

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/report"
)

// publishedRuns reads testdata/published: its records as runs, each with
// the display wra.toml's [labels.<key>] tables give every run of the
// folder.
func publishedRuns(t *testing.T) Runs {
	t.Helper()
	dir := filepath.Join("testdata", "published")
	var man struct {
		Labels model.Display `toml:"labels"`
	}
	if _, err := toml.DecodeFile(filepath.Join(dir, "wra.toml"), &man); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(map[string]string{model.DisplayLabel: man.Labels.JSON()})
	if err != nil {
		t.Fatal(err)
	}
	labels := string(b)
	f, err := os.Open(filepath.Join(dir, "runs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	runs := Runs{Columns: append([]string{"run_id", "source", "source_line", "tool", "latency_corrected", "labels"}, recs[0]...)}
	for i, rec := range recs[1:] {
		row := []any{"r" + strconv.Itoa(i), "runs.csv", int64(i + 2), "records", true, labels}
		for j, v := range rec {
			switch {
			case v == "":
				row = append(row, nil)
			case j < 2:
				row = append(row, v)
			default:
				x, err := strconv.ParseFloat(v, 64)
				if err != nil {
					t.Fatal(err)
				}
				row = append(row, x)
			}
		}
		runs.Rows = append(runs.Rows, row)
	}
	return runs
}

// The write-up's tables, laid out again from its records with its own
// cell templates: every cell, heading, name and the order of rows and
// columns as the author printed them, the best of a column in bold where
// it is best beyond the rounds (Insert's rounds overlap: none marked).
func TestPublishedTables(t *testing.T) {
	runs := publishedRuns(t)
	for _, c := range []struct{ cell, want string }{
		{"{rps:,.0f} ({latency_p99_ms:.1f})", "throughput.md"},
		{"{cpu_user_us:.0f} + {cpu_kernel_us:.0f}[; {cpu_db_us:.0f}]", "cpu.md"},
	} {
		tables, err := Project(runs, Spec{Cell: c.cell, Rows: []string{"server"}, Cols: []string{"test"}})
		if err != nil {
			t.Fatal(err)
		}
		if len(tables) != 1 {
			t.Fatalf("%s: %d tables", c.cell, len(tables))
		}
		want, err := os.ReadFile(filepath.Join("testdata", "published", c.want))
		if err != nil {
			t.Fatal(err)
		}
		md := write(t, tables[0], report.Markdown)
		got, _, _ := strings.Cut(md, "\n\n¹") // the table, without its footnotes
		_, got, _ = strings.Cut(got, "\n\n")  // nor its title
		if got+"\n" != string(want) {
			t.Errorf("%s:\n%s\nwant (%s)\n%s", c.cell, md, c.want, want)
		}
		if c.want == "throughput.md" {
			notes := strings.Join(tables[0].Notes, "\n")
			if !strings.Contains(notes, "no rps marked best in the column Insert") || strings.Contains(notes, "rows in order of") {
				t.Errorf("notes:\n%s", notes)
			}
		}
		// Machines read the values, not the names.
		if csvText := write(t, tables[0], report.CSV); !strings.HasPrefix(csvText, "server,") || !strings.Contains(csvText, "\ndext,") {
			t.Errorf("csv:\n%s", csvText)
		}
	}
}

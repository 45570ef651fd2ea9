package record

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// The README names every stack with its database and how each database
// was started, from the plan's stack table (no hand-kept list).
func TestReadmeStacksAndDatabases(t *testing.T) {
	r := &Runner{Plan: Full(), dbs: map[string]*runningDB{
		PostgreSQL: {Name: "PostgreSQL", Port: 55432},
		MariaDB:    {Name: "MariaDB", Port: 53306},
	}}
	r.Plan.Calm.MaxWait = 10 * time.Minute
	t0 := time.Date(2026, 12, 1, 14, 0, 0, 0, time.UTC)
	pairs := []pairStat{{Name: "trial-2", Cells: "128", Started: t0, Ended: t0.Add(25*time.Minute + 3*time.Second),
		Load1: 0.31, LoadLimit: 1, Waited: 45 * time.Second,
		Before: "1: 410, 2: 415.5", After: "1: 420, 2: 418", Drift: 0.0243902}}
	d := readmeData{Plan: r.Plan, Stacks: r.stacks(), Databases: r.databases(), Pairs: pairs, Stages: r.Plan.Ladder.Stages(),
		Seed: 42, Cells: 128}
	var b bytes.Buffer
	if err := readmeTemplate.Execute(&b, d); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for _, want := range []string{
		"8 web stacks\nserving the same small JSON API from a real PostgreSQL and a real MariaDB,",
		"| go-pgx | postgresql | Go net/http + pgx v5 pool",
		"| go-mysql | mariadb | Go net/http + database/sql + go-sql-driver/mysql, default mode",
		"| go-mysql-interp | mariadb | the same program with `interpolateParams=true`",
		"PostgreSQL runs on 127.0.0.1:55432 from a fresh initdb; MariaDB runs on 127.0.0.1:53306 from a fresh mariadb-install-db (InnoDB); each has the table",
		"`server`, `database`",
		"`cpu_db_s`, `cpu_db_user_s`, `cpu_db_kernel_s`",
		"`cpu_source`, `memory_source`",
		"(and waited, polling every 15s\nfor at most 10m0s, until it was at most 0.5 per CPU, then went on\nwhatever it was)",
		"a pair beyond 5% is marked",
		"5 trials of 128 cells, in orders\ndrawn from seed **42** by wra record",
		"go run ./cmd/record -dry-run -plan full -seed 42",
		"go run ./cmd/record -plan full -seed 42 -out ..",
		"| trial-2 | 128 | 14:00:00 | 14:25:03 | 0.31 (1.00) | 45s | 1: 410, 2: 415.5 | 1: 420, 2: 418 | 2.4% |",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("README lacks %q", want)
		}
	}
	if strings.Contains(text, "cpu_postgres") {
		t.Error("README still names cpu_postgres columns")
	}
}

package costs

import (
	"slices"
	"strings"
	"testing"

	"github.com/wra-bench/wra/cost"
	"github.com/wra-bench/wra/model/analysis"
	"github.com/wra-bench/wra/report"
)

var price = cost.Price{Provider: "test", Name: "Test", VCPUHourUSD: 0.04, MemHourUSD: 0.005, MemUnit: cost.GiB, Origin: "command line"}

func job(server, database string, cpuMS, memGiB float64) Job {
	return Job{
		Stack:    cost.Stack{Server: server, Database: database, CPUPerRequestS: cpuMS / 1000, Memory: cost.FixedMemory(memGiB)},
		Workload: cost.Workload{RPS: 1000, Utilisation: 0.5},
	}
}

// TestMonthlyOrder: cheapest first, a tie by name; a stack without a
// database has NULL database figures, not zeros.
func TestMonthlyOrder(t *testing.T) {
	jobs := []Job{job("b", "", 1, 1), job("a", "pg", 2, 1), job("a", "", 1, 1)}
	sec, err := analysis.PriceJobs(jobs, price, jobs[0].Workload, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	d := Monthly(sec)
	at := func(name string) int {
		return slices.IndexFunc(d.Columns, func(c report.Column) bool { return c.Name == name })
	}
	var got []string
	for _, r := range d.Rows {
		got = append(got, StackName(cost.Stack{Server: r[at("server")].(string), Database: str(r[at("database")])}))
	}
	if want := "a, b, a / pg"; strings.Join(got, ", ") != want {
		t.Errorf("order %v, want %s", got, want)
	}
	db := []int{at("db_vcpu"), at("db_gib"), at("db_usd_month")}
	if r := d.Rows[0]; r[db[0]] != nil || r[db[1]] != nil || r[db[2]] != nil {
		t.Errorf("a stack without a database: db figures %v %v %v, want NULL", r[db[0]], r[db[1]], r[db[2]])
	}
	if r := d.Rows[2]; r[db[0]] == nil {
		t.Errorf("a stack with a database has no db vCPU")
	}
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// TestBudgetLeavesOutWhatMemoryAloneExceeds: a stack whose memory costs
// more than the budget at 0 requests/s gets a note, not a row.
func TestBudgetLeavesOutWhatMemoryAloneExceeds(t *testing.T) {
	d, err := Budget([]Job{job("small", "", 1, 1), job("huge", "", 1, 1000)}, price, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Rows) != 1 || d.Rows[0][0] != "small" {
		t.Fatalf("rows %v, want only small", d.Rows)
	}
	if !strings.HasPrefix(d.Notes[0], "huge: the budget does not cover its memory at 0 requests/s (3650.00 $/month)") {
		t.Errorf("note %q", d.Notes[0])
	}
}

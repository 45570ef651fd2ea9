package store_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/model/store"
	"github.com/wra-bench/wra/stats"
)

// TestServersSelectTheirRows checks the readers that take a *Servers:
// the rows they read for some servers are the rows they read for all,
// of those servers, and a comparison reads the runs of its sides'
// servers.
func TestServersSelectTheirRows(t *testing.T) {
	st := openViewsStore(t, "harness", "k6")
	ingestK6Steps(t, st)
	ctx := context.Background()
	rule := stats.DefaultLadderRule
	steps, err := st.LadderSteps(ctx, rule)
	if err != nil {
		t.Fatal(err)
	}
	ladders, err := st.Ladders(ctx, rule)
	if err != nil {
		t.Fatal(err)
	}
	var servers []string
	for _, s := range steps {
		if !slices.Contains(servers, s.Server) {
			servers = append(servers, s.Server)
		}
	}
	if len(servers) < 4 {
		t.Fatalf("ladders of %d servers (%v), want 4 or more", len(servers), servers)
	}
	// every server alone, then two together
	picks := [][]string{{servers[0], servers[len(servers)-1]}}
	for _, s := range servers {
		picks = append(picks, []string{s})
	}
	for _, pick := range picks {
		sel := &store.Servers{Names: pick}
		gotSteps, err := st.LadderStepsOf(ctx, rule, sel)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := fmt.Sprint(gotSteps), fmt.Sprint(ofServers(steps, pick, func(r model.LadderStepRow) string { return r.Server })); got != want || len(gotSteps) == 0 {
			t.Errorf("LadderStepsOf(%v):\n%s\nwant the rows of LadderSteps of those servers:\n%s", pick, got, want)
		}
		gotLadders, err := st.LaddersOf(ctx, rule, sel)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := fmt.Sprint(gotLadders), fmt.Sprint(ofServers(ladders, pick, func(r model.LadderRow) string { return r.Server })); got != want || len(gotLadders) == 0 {
			t.Errorf("LaddersOf(%v):\n%s\nwant the rows of Ladders of those servers:\n%s", pick, got, want)
		}
	}

	sides := store.CompareSides{By: "server", Base: servers[0], Vs: servers[1]}
	sel, err := st.CompareServers(ctx, sides)
	if err != nil {
		t.Fatal(err)
	}
	if want := slices.Sorted(slices.Values(servers[:2])); !slices.Equal(sel.Names, want) || sel.Unnamed {
		t.Errorf("CompareServers(%+v) = %+v, want %v", sides, sel, want)
	}
	runs, err := st.CompareRuns(ctx, sides, sel)
	if err != nil {
		t.Fatal(err)
	}
	t2, err := st.Query(ctx, `SELECT run_id FROM run_groups WHERE server IN (?, ?) ORDER BY run_id`, servers[0], servers[1])
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != len(t2.Rows) || len(runs) == 0 {
		t.Fatalf("CompareRuns(%+v): %d runs, run_groups has %d of those servers", sides, len(runs), len(t2.Rows))
	}
	for i, r := range runs {
		if r.ID != t2.Rows[i][0] {
			t.Errorf("CompareRuns run %d = %s, run_groups has %v", i, r.ID, t2.Rows[i][0])
		}
	}
}

// ofServers keeps the rows whose server is one of names.
func ofServers[T any](rows []T, names []string, server func(T) string) []T {
	var out []T
	for _, r := range rows {
		if slices.Contains(names, server(r)) {
			out = append(out, r)
		}
	}
	return out
}

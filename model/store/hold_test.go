package store_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/model/store"
	"github.com/wra-bench/wra/stats"
)

// heldReads are what the held views give the readers of an analysis.
type heldReads struct {
	refs    []model.RunGroupRef
	memory  []model.PeakMemory
	caveats map[string][]model.Caveat
	medians *store.Table
}

func readHeld(t *testing.T, st *store.Store) heldReads {
	t.Helper()
	ctx := context.Background()
	var r heldReads
	var err error
	if r.refs, err = st.RunGroupRefs(ctx); err != nil {
		t.Fatal(err)
	}
	if r.memory, err = st.PeakMemory(ctx); err != nil {
		t.Fatal(err)
	}
	if r.caveats, err = st.Caveats(ctx, model.DesignRule{Tolerance: 0.05, LadderRule: stats.LadderRule{P95MS: 50, MaxErrorRate: 0.01, MinAchievedRatio: 0.95}}); err != nil {
		t.Fatal(err)
	}
	if r.medians, err = st.Query(ctx, `SELECT * FROM run_medians ORDER BY group_id`); err != nil {
		t.Fatal(err)
	}
	return r
}

// temporaries are the names of the temporary tables of the store's
// connection.
func temporaries(t *testing.T, st *store.Store) []any {
	t.Helper()
	tab, err := st.Query(context.Background(), `SELECT table_name FROM duckdb_tables() WHERE temporary ORDER BY table_name`)
	if err != nil {
		t.Fatal(err)
	}
	var names []any
	for _, r := range tab.Rows {
		names = append(names, r[0])
	}
	return names
}

// Hold gives the readers the rows the views give, from temporary tables
// that shadow them until release, and release leaves the views alone.
func TestHoldReadsWhatTheViewsGive(t *testing.T) {
	st := openViewsStore(t, "harness", "k6")
	ingestK6Steps(t, st)
	views := readHeld(t, st)
	if len(views.refs) == 0 || len(views.memory) == 0 || len(views.caveats) == 0 || len(views.medians.Rows) == 0 {
		t.Fatalf("nothing to compare: %d refs, %d memory rows, %d groups with caveats, %d medians",
			len(views.refs), len(views.memory), len(views.caveats), len(views.medians.Rows))
	}
	threads := func() string {
		t.Helper()
		tab, err := st.Query(context.Background(), `SELECT current_setting('threads')::VARCHAR`)
		if err != nil {
			t.Fatal(err)
		}
		return store.Text(tab.Rows[0][0])
	}
	before := threads()
	release, err := st.Hold(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// the views are evaluated with one thread, and the queries after
	// run with the store's
	if after := threads(); after != before {
		t.Errorf("threads %s after Hold, want %s as before", after, before)
	}
	if got, want := temporaries(t, st), []any{"run_groups", "run_medians"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("held tables %v, want %v", got, want)
	}
	if held := readHeld(t, st); !reflect.DeepEqual(held, views) {
		t.Errorf("held views read\n%+v\nwant as the views\n%+v", held, views)
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
	if got := temporaries(t, st); len(got) != 0 {
		t.Fatalf("tables %v left after release", got)
	}
	if after := readHeld(t, st); !reflect.DeepEqual(after, views) {
		t.Errorf("after release read\n%+v\nwant\n%+v", after, views)
	}
}

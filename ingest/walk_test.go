package ingest

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"github.com/wra-bench/wra/model"
)

// batchStore is a memStore that also loads batches, and whose sinks have
// a bulk scanner: it records which way each file went.
type batchStore struct {
	memStore
	batched []string // sources loaded by LoadBatch
	bulk    []string // sources whose reader asked for the bulk scanner
}

func (b *batchStore) LoadBatch(ctx context.Context, files []model.File, fills []func(model.Sink) error) ([]int64, error) {
	rows := make([]int64, len(files))
	for i, f := range files {
		n, err := b.memStore.Load(ctx, f, fills[i])
		if err != nil {
			return nil, err
		}
		rows[i] = n
		b.batched = append(b.batched, f.Source)
	}
	return rows, nil
}

func (b *batchStore) Load(ctx context.Context, f model.File, fill func(model.Sink) error) (int64, error) {
	return b.memStore.Load(ctx, f, func(s model.Sink) error {
		return fill(&bulkCollector{Sink: s, seen: func() { b.bulk = append(b.bulk, f.Source) }})
	})
}

// bulkCollector is a sink with a bulk scanner that declines the work, so
// that the reader streams the points itself.
type bulkCollector struct {
	model.Sink
	seen func()
}

func (c *bulkCollector) BulkSamples(int, *model.BulkInput) (*model.BulkResult, error) {
	c.seen()
	return nil, model.ErrBulkUnsupported
}

// TestBatchLeavesPointStreamsToTheScanner: a point stream is handed to the
// store's scanner even when it is small enough for a batch (the shipped
// corpus's ladders are under a megabyte gzipped and 10 to 30 MB of
// points); the small reports around it are batched.
func TestBatchLeavesPointStreamsToTheScanner(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mix")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{
		"k6/k6_constant_err_points.ndjson",
		"k6/k6_constant_err_points.csv",
		"k6/k6_ladder_points.ndjson.gz",
		"wrk2/wrk2_U_go2_wait5_R1000.txt",
		"wrk2/wrk2_non2xx_go1_err5pct_R1500.txt",
	} {
		b, err := os.ReadFile(filepath.Join("testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st := &batchStore{}
	res, err := Ingest(context.Background(), st, []string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Files {
		if f.Status != Loaded {
			t.Errorf("%s: %s %v", f.Source, f.Status, f.Err)
		}
	}
	sort.Strings(st.bulk)
	sort.Strings(st.batched)
	wantBulk := []string{"mix/k6_constant_err_points.csv", "mix/k6_constant_err_points.ndjson", "mix/k6_ladder_points.ndjson.gz"}
	wantBatch := []string{"mix/wrk2_U_go2_wait5_R1000.txt", "mix/wrk2_non2xx_go1_err5pct_R1500.txt"}
	if !slices.Equal(st.bulk, wantBulk) {
		t.Errorf("bulk scanner asked for %v, want %v", st.bulk, wantBulk)
	}
	if !slices.Equal(st.batched, wantBatch) {
		t.Errorf("batched %v, want %v", st.batched, wantBatch)
	}
	// The streamed points still arrive: the fallback wrote them.
	if c := st.loads["mix/k6_constant_err_points.ndjson"]; c == nil || len(c.Samples) == 0 {
		t.Errorf("no samples stored for the NDJSON stream")
	}
}

// A report wra analyze wrote inside the folder it read (its folder holds
// ReportMarker) is skipped as a whole, with its reason, even under
// --strict; the records beside it load.
func TestWalkSkipsOwnReport(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bench")
	report := filepath.Join(dir, "wra-report")
	if err := os.MkdirAll(filepath.Join(report, "tables"), 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join("testdata", "wrk2", "wrk2_U_go2_wait5_R1000.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string][]byte{
		filepath.Join(dir, "run.txt"):                  b,
		filepath.Join(report, ReportMarker):            []byte("key\n"),
		filepath.Join(report, "index.html"):            []byte("<!doctype html>\n"),
		filepath.Join(report, "tables", "rounds.csv"):  []byte("server,rps\ngo,1000\n"),
		filepath.Join(report, "tables", "rounds.json"): []byte(`[{"server":"go","rps":1000}]`),
	} {
		if err := os.WriteFile(name, content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Ingest(context.Background(), &batchStore{}, []string{dir}, Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Files {
		got = append(got, f.Source+" "+f.Status.String()+" "+f.Reason)
	}
	want := []string{"bench/run.txt loaded ", "bench/wra-report skipped a report wra analyze wrote (it holds .wra-analysis-key), not records"}
	sort.Strings(got)
	if !slices.Equal(got, want) {
		t.Errorf("results\n%q\nwant\n%q", got, want)
	}
}

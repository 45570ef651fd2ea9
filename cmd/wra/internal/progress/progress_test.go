package progress_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/wra-bench/wra/cmd/wra/internal/progress"
	"github.com/wra-bench/wra/ingest"
	"github.com/wra-bench/wra/ingest/ingesttest"
	"github.com/wra-bench/wra/model"
)

// store is an ingest.Store whose sink is the test's.
type store struct{ sink model.Sink }

func (store) IngestedHash(context.Context, string) (string, bool, error) { return "", false, nil }

func (s store) Load(_ context.Context, f model.File, fill func(model.Sink) error) (int64, error) {
	if f.Sum != nil {
		defer f.Sum()
	}
	return 0, fill(s.sink)
}

// gatedSink holds the reader of the file at every pause-th point until
// the test lets it go on: at each pause the reader has read the file to
// that point and no further than its buffers.
type gatedSink struct {
	pause   int
	n       int
	paused  chan<- struct{}
	proceed <-chan struct{}
}

func (s *gatedSink) step() {
	s.paused <- struct{}{}
	<-s.proceed
}

func (s *gatedSink) Run(*model.Run) error                      { return nil }
func (s *gatedSink) Memory(*model.MemoryPoint) error           { return nil }
func (s *gatedSink) Calibration(*model.CalibrationPoint) error { return nil }
func (s *gatedSink) Sample(run int, p *model.Sample) error {
	if s.n++; s.n%s.pause == 0 {
		s.step()
	}
	return nil
}

// scannerSink is a store's scanner that reads the file itself, one
// chunk each time the test lets it, and says how far it has read.
type scannerSink struct {
	gatedSink
	chunk int
}

func (s *scannerSink) BulkSamples(run int, in *model.BulkInput) (*model.BulkResult, error) {
	f, err := os.Open(in.Path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, s.chunk)
	var pos int64
	for {
		n, err := io.ReadFull(f, buf)
		pos += int64(n)
		if n > 0 && in.Progress != nil {
			in.Progress(pos)
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
		s.step()
	}
	return &model.BulkResult{Rows: 1, Metrics: []model.MetricStats{{Metric: "http_reqs", Count: 1, Sum: 1}}}, nil
}

var percent = regexp.MustCompile(`(\d+)%`)

// shown is the percentage of the bar as it was last drawn.
func shown(t *testing.T, out *bytes.Buffer) int {
	t.Helper()
	frames := strings.Split(out.String(), "\r")
	for i := len(frames) - 1; i >= 0; i-- {
		if m := percent.FindStringSubmatch(frames[i]); m != nil {
			v, _ := strconv.Atoi(m[1])
			return v
		}
	}
	return -1
}

// TestBarMovesWithinOneFile ingests one large point stream, read slowly
// by the Go reader or by a store's own scanner, and checks at every
// pause of the reader that the bar drawn shows a larger fraction than at
// the pause before, and less than the whole until the file is done.
func TestBarMovesWithinOneFile(t *testing.T) {
	const size = 4 << 20
	path := filepath.Join(t.TempDir(), "big.ndjson")
	ingesttest.K6Stream(t, path, size, false)
	for _, tc := range []struct {
		name string
		sink func(g gatedSink) model.Sink
	}{
		// Points are about 340 bytes: a pause every 3000 is every 1 MB,
		// more than the reader's buffers and the meter's step together.
		{"go reader", func(g gatedSink) model.Sink { g.pause = 3000; return &g }},
		{"store scanner", func(g gatedSink) model.Sink { return &scannerSink{gatedSink: g, chunk: 512 << 10} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			paused := make(chan struct{})
			proceed := make(chan struct{})
			var out bytes.Buffer
			draw, finish := progress.Ingest(&out, progress.Options{MinBytes: 1, Width: 20})
			var lastSeen ingest.Progress
			report := func(p ingest.Progress) { lastSeen = p; draw(p) }
			type result struct {
				res *ingest.Result
				err error
			}
			done := make(chan result, 1)
			go func() {
				res, err := ingest.Ingest(context.Background(), store{tc.sink(gatedSink{paused: paused, proceed: proceed})}, []string{path}, ingest.Options{Progress: report})
				done <- result{res, err}
			}()
			last, pauses := -1, 0
			for {
				select {
				case <-paused:
					pct := shown(t, &out)
					if pct <= last || pct >= 100 {
						t.Fatalf("pause %d: the bar shows %d%%, after %d%% at the pause before (while the file loads it must grow and stay below 100%%):\n%q", pauses, pct, last, out.String())
					}
					last = pct
					pauses++
					proceed <- struct{}{}
					continue
				case r := <-done:
					if r.err != nil {
						t.Fatal(r.err)
					}
					if fr := r.res.Files[0]; fr.Status != ingest.Loaded {
						t.Fatalf("%s: %v %v", fr.Source, fr.Status, fr.Err)
					}
				}
				break
			}
			if pauses < 3 {
				t.Fatalf("the reader paused %d times; the test needs at least 3", pauses)
			}
			if lastSeen.Bytes != lastSeen.TotalBytes || lastSeen.Files != 1 {
				t.Errorf("the last progress is %+v, want every file and byte done", lastSeen)
			}
			finish()
			if tail := out.String()[strings.LastIndex(out.String(), "\r"):]; strings.TrimSpace(tail) != "" {
				t.Errorf("the bar's line is not cleared at the end: %q", tail)
			}
		})
	}
}

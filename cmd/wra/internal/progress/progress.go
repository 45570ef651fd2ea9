// Package progress draws the progress of long work on a terminal: a bar
// of the bytes done against the bytes in all, with the rate and the time
// left worked out from bytes. The ingest reports its bytes as files are
// read (ingest.Progress), so the bar moves through one large file too.
package progress

import (
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/wra-bench/wra/ingest"
)

// Bar is a bar of bytes on a terminal.
type Bar struct {
	bar *progressbar.ProgressBar
}

// Options are the settings of a Bar.
type Options struct {
	// Description comes before the bar, such as "ingest".
	Description string
	// Throttle is the shortest time between two drawings; 0 draws at
	// every change.
	Throttle time.Duration
	// Width of the bar itself, in characters; 0 for the default.
	Width int
	// MinBytes and MinFiles: an ingest of fewer bytes and fewer files
	// shows no bar (0 for IngestMinBytes and IngestMinFiles).
	MinBytes int64
	MinFiles int
}

// New starts a bar of total bytes on w (a terminal: it redraws its line
// with a carriage return).
func New(w io.Writer, total int64, o Options) *Bar {
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(o.Description),
		progressbar.OptionShowBytes(true),
		// The count (bytes done of all) redraws the bar whenever bytes
		// move, not only when the whole percentage changes.
		progressbar.OptionShowCount(),
		progressbar.OptionUseIECUnits(true),
		progressbar.OptionThrottle(o.Throttle),
		progressbar.OptionClearOnFinish(),
	}
	if o.Width > 0 {
		opts = append(opts, progressbar.OptionSetWidth(o.Width))
	}
	return &Bar{bar: progressbar.NewOptions64(total, opts...)}
}

// Set moves the bar to done bytes.
func (b *Bar) Set(done int64) { b.bar.Set64(done) }

// Finish completes the bar and clears its line.
func (b *Bar) Finish() { b.bar.Finish() }

// Thresholds below which an ingest shows no bar: it ends before a bar
// would tell anything.
const (
	IngestMinBytes = 32 << 20
	IngestMinFiles = 200
)

// Ingest returns an ingest.Options.Progress that draws a bar on w once an
// ingest is large enough (o.MinBytes or o.MinFiles), and the
// function that finishes the bar after the ingest.
func Ingest(w io.Writer, o Options) (report func(ingest.Progress), finish func()) {
	if o.Description == "" {
		o.Description = "ingest"
	}
	if o.MinBytes == 0 {
		o.MinBytes = IngestMinBytes
	}
	if o.MinFiles == 0 {
		o.MinFiles = IngestMinFiles
	}
	var mu sync.Mutex
	var bar *Bar
	report = func(p ingest.Progress) {
		mu.Lock()
		defer mu.Unlock()
		if bar == nil {
			if p.TotalBytes < o.MinBytes && p.TotalFiles < o.MinFiles {
				return
			}
			bar = New(w, max(p.TotalBytes, 1), o)
		}
		done := p.Bytes
		if p.Files < p.TotalFiles {
			// A file read to its end is still being stored; at its
			// total the bar would finish and clear its line.
			done = min(done, p.TotalBytes-1)
		}
		bar.Set(done)
	}
	finish = func() {
		mu.Lock()
		defer mu.Unlock()
		if bar != nil {
			bar.Finish()
		}
	}
	return report, finish
}

// Timed is a bar of scheduled time, for a recording: the description
// names where it is (the trial and the cell), the bar moves with the
// time a step has run up to the step's own length, and the time left is
// the bar's estimate from the rate it has moved at.
type Timed struct {
	mu    sync.Mutex
	bar   *progressbar.ProgressBar
	base  time.Duration // done before the step under way
	step  time.Duration // the length of the step under way
	since time.Time
	stop  chan struct{}
	done  chan struct{}
}

// NewTimed starts a bar of total scheduled time on w, a terminal; it
// redraws every tick.
func NewTimed(w io.Writer, total time.Duration, tick time.Duration) *Timed {
	t := &Timed{
		bar: progressbar.NewOptions64(max(total.Milliseconds(), 1),
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionShowDescriptionAtLineEnd(),
			progressbar.OptionThrottle(tick),
			progressbar.OptionClearOnFinish()),
		stop: make(chan struct{}),
		done: make(chan struct{}),
	}
	go func() {
		defer close(t.done)
		tk := time.NewTicker(tick)
		defer tk.Stop()
		for {
			select {
			case <-t.stop:
				return
			case <-tk.C:
				t.mu.Lock()
				t.bar.Set64((t.base + min(time.Since(t.since), t.step)).Milliseconds())
				t.mu.Unlock()
			}
		}
	}()
	return t
}

// Step says that a step of length step starts, done into the schedule,
// with a description such as "trial 2/5, cell 13/60: fixed-rate go r=500".
func (t *Timed) Step(done, step time.Duration, desc string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.base, t.step, t.since = done, step, time.Now()
	t.bar.Describe(desc)
	t.bar.Set64(done.Milliseconds())
}

// Finish stops the bar and clears its line.
func (t *Timed) Finish() {
	close(t.stop)
	<-t.done
	t.mu.Lock()
	defer t.mu.Unlock()
	t.bar.Finish()
}

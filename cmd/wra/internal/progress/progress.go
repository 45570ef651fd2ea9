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

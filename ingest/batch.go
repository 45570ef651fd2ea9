package ingest

import (
	"context"
	"errors"
	"slices"

	"github.com/wra-bench/wra/model"
)

// BatchLoader is a Store that also loads many files in one transaction:
// all of them or, on an error, none. A small report has fewer rows than a
// transaction has statements, so the walker reads small files first into
// memory and hands them to the store in batches; when a batch fails it
// loads its files one by one with Load, so that only the bad one fails.
type BatchLoader interface {
	LoadBatch(ctx context.Context, files []model.File, fills []func(model.Sink) error) (rows []int64, err error)
}

const (
	// batchFileMax is the largest file read into a batch; larger ones
	// are loaded alone, streaming.
	batchFileMax = 1 << 20
	// batchMaxFiles and batchMaxBytes bound a batch: its memory, and
	// the work lost to a batch that fails and is loaded again file by
	// file.
	batchMaxFiles = 500
	batchMaxBytes = 16 << 20
)

// batch is the files read and not yet stored.
type batch struct {
	bl      BatchLoader
	items   []pending
	sources map[string]bool
	bytes   int64
}

// pending is a file read into memory: its result, at index idx of the
// ingest's result, is final once the batch is stored.
type pending struct {
	idx  int
	file model.File
	tape *tape
}

func (b *batch) full() bool { return len(b.items) >= batchMaxFiles || b.bytes >= batchMaxBytes }

// ingest reads a small file into the batch; a file that is unchanged,
// unreadable, of no known format, a point stream for the store's bulk
// scanner (which may be small only while compressed) or that its reader
// refuses goes the way of ingestFile, which gives it its result at once.
func (b *batch) ingest(ctx context.Context, st Store, res *Result, j job, opts Options) (FileResult, error) {
	if b.sources[j.source] {
		// The same source twice: the first must be stored before the
		// second replaces it.
		if err := b.flush(ctx, st, res); err != nil {
			return FileResult{}, err
		}
	}
	fr := FileResult{Source: j.source, Bytes: j.size}
	sum, err := hashFile(j.path)
	if err != nil {
		return ingestFile(ctx, st, j, opts)
	}
	old, known, err := st.IngestedHash(ctx, j.source)
	if err != nil {
		return fr, err
	}
	if known && old == sum && !j.force {
		fr.Status = Unchanged
		return fr, nil
	}
	o, err := open(j.path, j.source)
	if err != nil {
		return ingestFile(ctx, st, j, opts)
	}
	o.R = &ctxReader{ctx: ctx, r: o.R}
	o.Strict = opts.Strict
	f := Detect(o.head)
	if f == nil || f.Bulk {
		o.close()
		return ingestFile(ctx, st, j, opts)
	}
	t := &tape{}
	err = f.Read(&o.Input, readerSink(j, o, opts, t))
	o.close()
	if err != nil {
		if ctx.Err() != nil {
			return fr, ctx.Err()
		}
		// Refused: read it again on the way that reports the error.
		return ingestFile(ctx, st, j, opts)
	}
	fr.Format = f.Name
	fr.Status = Loaded
	if known {
		fr.Status = Replaced
	}
	fr.Broken, fr.Warning, fr.Reason = o.broken, fileWarning(&o.Input), o.note
	fr.pending = true
	if b.sources == nil {
		b.sources = map[string]bool{}
	}
	b.sources[j.source] = true
	b.bytes += j.size
	b.items = append(b.items, pending{idx: len(res.Files), file: model.File{Source: j.source, SHA256: sum, Format: f.Name}, tape: t})
	return fr, nil
}

// flush stores the batch, or its files one by one if it fails as a whole,
// and completes their results.
func (b *batch) flush(ctx context.Context, st Store, res *Result) error {
	if len(b.items) == 0 {
		return nil
	}
	items := b.items
	b.items, b.sources, b.bytes = nil, nil, 0
	files := make([]model.File, len(items))
	fills := make([]func(model.Sink) error, len(items))
	for i, p := range items {
		files[i], fills[i] = p.file, p.tape.replay
	}
	rows, err := b.bl.LoadBatch(ctx, files, fills)
	if err == nil {
		for i, p := range items {
			res.Files[p.idx].Rows = rows[i]
			res.Files[p.idx].pending = false
			if k, ok := st.(*knownHashes); ok {
				k.hashes[p.file.Source] = p.file.SHA256
			}
		}
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	for _, p := range items {
		n, err := st.Load(ctx, p.file, p.tape.replay)
		fr := &res.Files[p.idx]
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			fr.Status, fr.Err, fr.Rows = Failed, loadError(p.file.Source, err), 0
		} else {
			fr.Rows = n
		}
		fr.pending = false
	}
	return nil
}

// dropPending removes from the result the files whose result is not
// final: those of a batch or a group of streams that was not stored.
func dropPending(res *Result) {
	res.Files = slices.DeleteFunc(res.Files, func(f FileResult) bool { return f.pending })
}

// loadError is the error a file's result reports when the store refused
// it: the reader's own errors name the file already.
func loadError(source string, err error) error {
	var se *SyntaxError
	if errors.As(err, &se) || errors.Is(err, ErrTooLarge) || errors.As(err, new(*LabelError)) {
		return err
	}
	return &fileError{source: source, err: err}
}

type fileError struct {
	source string
	err    error
}

func (e *fileError) Error() string { return e.source + ": " + e.err.Error() }
func (e *fileError) Unwrap() error { return e.err }

// tape is a Sink that records what a reader writes, to replay it into the
// store's sink (once more if a batch is loaded again file by file).
type tape struct {
	ev []func(model.Sink) error
}

func (t *tape) Run(r *model.Run) error {
	c := *r
	t.ev = append(t.ev, func(s model.Sink) error { r := c; return s.Run(&r) })
	return nil
}

func (t *tape) Sample(run int, p *model.Sample) error {
	c := *p
	t.ev = append(t.ev, func(s model.Sink) error { p := c; return s.Sample(run, &p) })
	return nil
}

func (t *tape) Memory(m *model.MemoryPoint) error {
	c := *m
	t.ev = append(t.ev, func(s model.Sink) error { m := c; return s.Memory(&m) })
	return nil
}

func (t *tape) Calibration(p *model.CalibrationPoint) error {
	c := *p
	t.ev = append(t.ev, func(s model.Sink) error { p := c; return s.Calibration(&p) })
	return nil
}

// BulkSamples is never called: a reader that asks for the store's bulk
// scanner is of a Format marked Bulk, and such files are loaded alone.
// Were one read into a batch, it would decode in Go, at a fraction of the
// scanner's speed, and then be read a second time.
func (t *tape) BulkSamples(int, *model.BulkInput) (*model.BulkResult, error) {
	panic("ingest: a reader of a format not marked Bulk asked for the bulk scanner")
}

func (t *tape) replay(s model.Sink) error {
	for _, e := range t.ev {
		if err := e(s); err != nil {
			return err
		}
	}
	return nil
}

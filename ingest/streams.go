package ingest

import (
	"context"
	"fmt"

	"github.com/wra-bench/wra/model"
)

// StreamLoader is a Store that also loads several point streams at once,
// in one transaction and one scan of all their files
// (model.BulkStream): all of them or, on an error, none. DuckDB's scanner
// reads one gzip file with one thread, so that a folder of streams loaded
// one by one keeps one core busy, and a scan of several keeps them all.
// The walker hands it the k6 NDJSON and CSV streams and the JMeter JTL
// CSVs of a folder in groups, each file's reader running until it hands
// its stream over and finishing once its samples are stored; when a
// group fails it loads its files one by one, so that only the bad one
// fails, with the error it has alone.
type StreamLoader interface {
	LoadStreams(ctx context.Context, streams []model.BulkStream) (rows []int64, err error)
}

const (
	// groupMaxFiles and groupMaxBytes bound a group of streams: the
	// files open at once, the points DuckDB holds for the group's
	// transaction until it commits, and the work lost to a group that
	// fails and is loaded again file by file. 16 files keep both cores
	// busy as 32 did (data/ladder's 30 streams at 1.33 times DuckDB's one
	// statement over them either way), and 16 copies of data/ ingested
	// at a peak of 289 MiB instead of 301-315 (docs/performance.md).
	groupMaxFiles = 16
	groupMaxBytes = 256 << 20
)

// streamGroup is the point streams read up to their hand-over and not
// yet stored; a nil group takes none.
type streamGroup struct {
	sl      StreamLoader
	res     *Result
	items   []member
	sources map[string]bool
	bytes   int64
}

// member is a stream of the group: its file opened and detected, its
// result at index idx of the ingest's result.
type member struct {
	idx  int
	j    job
	o    *opened
	f    *Format
	file model.File
}

// takes reports whether a file opened as o, of format f, joins a group:
// a k6 NDJSON or CSV stream or a JMeter JTL CSV that DuckDB's scanner
// reads from its path.
func (g *streamGroup) takes(f *Format, o *opened) bool {
	return g != nil && (f.Name == "k6-ndjson" || f.Name == "k6-csv" || f.Name == "jmeter-jtl-csv") && o.Path != "" && !o.Transcoded &&
		model.ScannablePath(o.Path)
}

// makeRoom stores the group first when the file cannot join it: the same
// source again (the first must be stored before the second replaces it).
func (g *streamGroup) makeRoom(ctx context.Context, st Store, j job, opts Options) error {
	if g.sources[j.source] {
		return g.flush(ctx, st, opts)
	}
	return nil
}

// add keeps an opened stream in the group and returns its result, final
// once the group is stored.
func (g *streamGroup) add(j job, o *opened, f *Format, file model.File, known bool) FileResult {
	// The group reports the progress of its scan (store).
	o.pos.report, o.meter = nil, nil
	if g.sources == nil {
		g.sources = map[string]bool{}
	}
	g.sources[j.source] = true
	g.bytes += j.size
	g.items = append(g.items, member{idx: len(g.res.Files), j: j, o: o, f: f, file: file})
	fr := FileResult{Source: j.source, Bytes: j.size, Format: f.Name, Status: Loaded, pending: true}
	if known {
		fr.Status = Replaced
	}
	return fr
}

// holds reports whether the result at index idx waits in the group.
func (g *streamGroup) holds(idx int) bool {
	return g != nil && len(g.items) > 0 && g.items[len(g.items)-1].idx == idx
}

func (g *streamGroup) full() bool {
	return g != nil && (len(g.items) >= groupMaxFiles || g.bytes >= groupMaxBytes)
}

// drop closes the files of a group that will not be stored.
func (g *streamGroup) drop() {
	if g == nil {
		return
	}
	for _, m := range g.items {
		m.close()
	}
	g.items, g.sources, g.bytes = nil, nil, 0
}

func (m member) close() {
	m.o.close()
	if m.file.Sum != nil {
		m.file.Sum() // waits for a hash alongside
	}
}

// flush stores the group, its gzip files and its plain ones in a scan
// each, or the files of a scan one by one if it fails as a whole, and
// completes their results.
func (g *streamGroup) flush(ctx context.Context, st Store, opts Options) error {
	if g == nil || len(g.items) == 0 {
		return nil
	}
	items := g.items
	g.items, g.sources, g.bytes = nil, nil, 0
	defer func() {
		for _, m := range items {
			m.close()
		}
	}()
	var parts [2][]member
	for _, m := range items {
		if m.o.Gzip {
			parts[0] = append(parts[0], m)
		} else {
			parts[1] = append(parts[1], m)
		}
	}
	for _, part := range parts {
		if len(part) == 0 {
			continue
		}
		if err := g.store(ctx, st, opts, part); err != nil {
			return err
		}
	}
	return nil
}

// store loads the streams of one compression in one scan.
func (g *streamGroup) store(ctx context.Context, st Store, opts Options, items []member) error {
	// The bar counts the group as one file from the start, the readers'
	// passes before the scan included (meter.group).
	files := make([]groupFile, len(items))
	for i, m := range items {
		files[i] = groupFile{size: m.j.size, passBeforeScan: m.f.PassBeforeScan}
	}
	current := items[0].j.source
	if len(items) > 1 {
		current = fmt.Sprintf("%s and %d more", current, len(items)-1)
	}
	read, scan, done := opts.meter.group(current, files)
	defer done()
	reads := make([]*memberRead, len(items))
	for i, m := range items {
		m.o.pos.report = read[i]
		reads[i] = m.read(opts)
	}
	// Every reader runs until it hands its stream over (or returns
	// without one, to be read again alone).
	var streams []model.BulkStream
	var in []int // the members of streams, by index
	for i, r := range reads {
		select {
		case h := <-r.asked:
			h.in.Progress = scan[i]
			streams = append(streams, model.BulkStream{File: items[i].file, Run: h.run, Input: h.in, Finish: r.finish})
			in = append(in, i)
		case r.err = <-r.done:
			r.finished = true
		}
	}
	var rows []int64
	err := fmt.Errorf("no stream handed over")
	if len(streams) > 0 {
		rows, err = g.sl.LoadStreams(ctx, streams)
	}
	for _, r := range reads {
		r.abandon()
	}
	stored := map[int]int64{}
	if err == nil {
		for k, i := range in {
			stored[i] = rows[k]
		}
	} else if ctx.Err() != nil {
		return ctx.Err()
	}
	for i, m := range items {
		fr := &g.res.Files[m.idx]
		n, ok := stored[i]
		if !ok {
			// Not stored with the group: alone, as if never grouped
			// (the group counts its bytes).
			m.close()
			alone := opts
			alone.streams, alone.meter = nil, nil
			r, err := ingestFile(ctx, st, m.j, alone)
			if err != nil {
				return err
			}
			*fr = r
			continue
		}
		fr.Rows, fr.pending = n, false
		fr.Broken, fr.Warning, fr.Reason = m.o.broken, fileWarning(&m.o.Input), m.o.note
		if k, ok := st.(*knownHashes); ok {
			k.hashes[m.file.Source], _ = m.file.Hash()
		}
	}
	return nil
}

// memberRead is the reader of one member, running in a goroutine of its
// own until its stream is stored.
type memberRead struct {
	asked    chan handoff
	answer   chan bulkAnswer
	done     chan error
	tape     tape
	answered bool
	finished bool
	err      error // the reader's, once finished
}

// handoff is a reader's BulkSamples call.
type handoff struct {
	run int
	in  *model.BulkInput
}

type bulkAnswer struct {
	res *model.BulkResult
	err error
}

// read starts the member's reader.
func (m member) read(opts Options) *memberRead {
	r := &memberRead{asked: make(chan handoff, 1), answer: make(chan bulkAnswer, 1), done: make(chan error, 1)}
	go func() {
		r.done <- m.f.Read(&m.o.Input, readerSink(m.j, m.o, opts, &streamSink{tape: &r.tape, r: r}))
	}()
	return r
}

// finish is the stream's model.BulkStream.Finish: the reader gets the
// summary of its points and runs to its end, and what it wrote goes to
// the store's sink.
func (r *memberRead) finish(s model.Sink, res *model.BulkResult) error {
	r.answer <- bulkAnswer{res: res}
	r.answered = true
	r.err, r.finished = <-r.done, true
	if r.err != nil {
		return r.err
	}
	return r.tape.replay(s)
}

// abandon ends a reader the store did not finish.
func (r *memberRead) abandon() {
	if r.finished {
		return
	}
	if !r.answered {
		r.answer <- bulkAnswer{err: model.ErrBulkAbandoned}
		r.answered = true
	}
	r.err, r.finished = <-r.done, true
}

// streamSink is the sink of a member's reader: its one BulkSamples call
// is handed to the group, everything else recorded for the store.
type streamSink struct {
	*tape
	r      *memberRead
	handed bool
}

func (s *streamSink) BulkSamples(run int, in *model.BulkInput) (*model.BulkResult, error) {
	if s.handed {
		return nil, model.ErrBulkAbandoned
	}
	s.handed = true
	s.r.asked <- handoff{run: run, in: in}
	a := <-s.r.answer
	return a.res, a.err
}

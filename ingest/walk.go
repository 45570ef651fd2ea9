package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/wra-bench/wra/model"
)

// Store is where the walker loads files: the DuckDB store implements it.
type Store interface {
	// IngestedHash returns the SHA-256 of a source as it was last loaded.
	IngestedHash(ctx context.Context, source string) (sha string, ok bool, err error)
	// Load replaces the rows of f.Source by what fill writes, in one
	// transaction: when fill or the commit fails, nothing of the file is
	// kept and its earlier rows stay as they were.
	Load(ctx context.Context, f model.File, fill func(model.Sink) error) (rows int64, err error)
}

// HashLister is a Store that also lists the hash of every ingested source
// at once: the walker then reads them in one query per ingest rather than
// one per file, which is most of the time of an ingest of an unchanged
// folder.
type HashLister interface {
	IngestedHashes(ctx context.Context) (map[string]string, error)
}

// knownHashes answers IngestedHash from one listing when the store has
// one.
type knownHashes struct {
	Store
	hashes map[string]string
}

func (k *knownHashes) IngestedHash(_ context.Context, source string) (string, bool, error) {
	sha, ok := k.hashes[source]
	return sha, ok, nil
}

// Load keeps the listing current, for a source met twice in one ingest.
func (k *knownHashes) Load(ctx context.Context, f model.File, fill func(model.Sink) error) (int64, error) {
	rows, err := k.Store.Load(ctx, f, fill)
	if err == nil {
		k.hashes[f.Source], _ = f.Hash() // done: Load waited for it
	}
	return rows, err
}

// Status is what became of one file.
type Status int

const (
	Loaded    Status = iota // new, rows stored
	Replaced                // changed since the last ingest, rows replaced
	Unchanged               // same hash as stored: nothing to do
	Skipped                 // not a record wra reads
	Failed                  // malformed or unreadable: nothing stored
)

var statusNames = [...]string{"loaded", "replaced", "unchanged", "skipped", "failed"}

func (s Status) String() string { return statusNames[s] }

// FileResult is the outcome of one file.
type FileResult struct {
	Source string
	Format string
	Status Status
	Rows   int64
	Bytes  int64
	// Reason says why a file was skipped, or what became of a loaded
	// file that stores no row of its own; Err why it failed.
	Reason string
	Err    error
	// Warning, on a loaded file, names the values it stored as NULL
	// because they cannot be right (see Broken): one line, naming the
	// lines.
	Warning string
	Broken  []Broken

	// pending is set while the file waits in a batch or a group of
	// streams, its result not final: an ingest that stops then leaves it
	// out of its result.
	pending bool
}

// Options are the settings of one ingest.
type Options struct {
	// Labels from the command line, which override the manifest and the
	// record.
	Labels map[string]string
	// Strict makes a file of no known format a failure, not a skip, and
	// a value a reader would store as NULL (Broken) a failure of its file.
	Strict bool
	// Progress, when set, is called as each file starts and ends, and
	// while a large one is read, with the files and bytes done and in
	// all; one call at a time, from any goroutine.
	Progress func(p Progress)

	meter   *meter       // Progress's accounting, set by Ingest
	streams *streamGroup // the point streams read and not yet stored, set by Ingest
}

// Result is the outcome of an ingest.
type Result struct {
	Files []FileResult
}

// Count returns how many files ended with a status.
func (r *Result) Count(s Status) int {
	n := 0
	for _, f := range r.Files {
		if f.Status == s {
			n++
		}
	}
	return n
}

// Rows returns the rows stored by this ingest.
func (r *Result) Rows() int64 {
	var n int64
	for _, f := range r.Files {
		n += f.Rows
	}
	return n
}

// job is one file to ingest.
type job struct {
	path   string // on disk
	source string // as stored
	rel    string // relative to its root, for the manifest
	man    *Manifest
	size   int64
	skip   string // reason to skip without reading
	// force reads the file even where its hash is the one stored: a
	// file its reader reads with it changed (Format.Feeds).
	force bool
}

// Ingest loads files and folders into the store. Folders are walked
// recursively in lexical order; hidden files and folders are skipped, and
// a folder's wra.toml gives labels to its files. A file that fails is
// reported in the result and the rest still load; the error returned is
// for what stops the whole ingest (the store failing, ctx cancelled).
func Ingest(ctx context.Context, st Store, paths []string, opts Options) (*Result, error) {
	var jobs []job
	for _, p := range paths {
		js, err := collect(p)
		if err != nil {
			return nil, err
		}
		jobs = append(jobs, js...)
	}
	var total int64
	for _, j := range jobs {
		total += j.size
	}
	var bt *batch
	if bl, ok := st.(BatchLoader); ok && len(jobs) > 1 {
		bt = &batch{bl: bl}
	}
	res := &Result{}
	if sl, ok := st.(StreamLoader); ok && len(jobs) > 1 {
		opts.streams = &streamGroup{sl: sl, res: res}
	}
	if hl, ok := st.(HashLister); ok && len(jobs) > 1 {
		hashes, err := hl.IngestedHashes(ctx)
		if err != nil {
			return nil, err
		}
		st = &knownHashes{Store: st, hashes: hashes}
	}
	opts.meter = newMeter(opts.Progress, len(jobs), total)
	// stop ends the ingest early: the files still waiting are left out.
	stop := func(err error) (*Result, error) {
		opts.streams.drop()
		dropPending(res)
		return res, err
	}
	forced := map[string]bool{}
	for _, j := range jobs {
		j.force = forced[filepath.Clean(j.path)]
		if err := ctx.Err(); err != nil {
			return stop(err)
		}
		opts.meter.start(j)
		var fr FileResult
		var err error
		if bt != nil && j.skip == "" && j.size <= batchFileMax {
			fr, err = bt.ingest(ctx, st, res, j, opts)
		} else {
			fr, err = ingestFile(ctx, st, j, opts)
		}
		if opts.streams.holds(len(res.Files)) {
			opts.meter.setAside() // the group reports it
		} else {
			opts.meter.finish()
		}
		if err != nil {
			return stop(err)
		}
		res.Files = append(res.Files, fr)
		if p := feeds(fr, j.path); p != "" {
			forced[filepath.Clean(p)] = true
		}
		if bt != nil && bt.full() {
			if err := bt.flush(ctx, st, res); err != nil {
				return stop(err)
			}
		}
		if opts.streams.full() {
			if err := opts.streams.flush(ctx, st, opts); err != nil {
				return stop(err)
			}
		}
	}
	if err := opts.streams.flush(ctx, st, opts); err != nil {
		return stop(err)
	}
	if bt != nil {
		if err := bt.flush(ctx, st, res); err != nil {
			return stop(err)
		}
	}
	return res, nil
}

// feeds returns the file that a loaded file's format is read with, to be
// read again (Format.Feeds), or "".
func feeds(fr FileResult, path string) string {
	if fr.Status != Loaded && fr.Status != Replaced {
		return ""
	}
	for _, f := range formats {
		if f.Name == fr.Format && f.Feeds != nil {
			return f.Feeds(path)
		}
	}
	return ""
}

// collect lists the files below a path.
func collect(root string) ([]job, error) {
	info, err := os.Stat(root)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return []job{{path: root, source: filepath.Base(root), rel: filepath.Base(root), man: &Manifest{}, size: info.Size()}}, nil
	}
	man, err := ReadManifest(root)
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	prefix := filepath.Base(abs)
	var jobs []job
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == root {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if man.Ignored(rel) {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, ReportMarker)); err == nil {
				// wra analyze's own report, written inside the folder
				// it read: not records.
				jobs = append(jobs, job{path: p, source: path.Join(prefix, rel), rel: rel, man: man,
					skip: "a report wra analyze wrote (it holds " + ReportMarker + "), not records"})
				return filepath.SkipDir
			}
			return nil
		}
		j := job{path: p, source: path.Join(prefix, rel), rel: rel, man: man}
		switch {
		case rel == ManifestName:
			return nil
		case man.Ignored(rel):
			return nil
		case d.Type()&fs.ModeSymlink != 0:
			t, err := os.Stat(p)
			switch {
			case err != nil:
				j.skip = fmt.Sprintf("broken symbolic link: %v", err)
			case t.IsDir():
				j.skip = "symbolic link to a folder: not followed"
			case !t.Mode().IsRegular():
				j.skip = "not a regular file"
			default:
				j.size = t.Size()
			}
		case !d.Type().IsRegular():
			j.skip = "not a regular file"
		case strings.HasSuffix(p, ".duckdb") || strings.HasSuffix(p, ".duckdb.wal"):
			j.skip = "a DuckDB database, not a record"
		default:
			info, err := d.Info()
			if err != nil {
				return err
			}
			j.size = info.Size()
		}
		jobs = append(jobs, j)
		return nil
	})
	sort.SliceStable(jobs, func(a, b int) bool { return jobs[a].source < jobs[b].source })
	return jobs, err
}

// ReportMarker is the file wra analyze leaves in the folder of its report
// (the key of its cache): a folder that holds one is skipped, so that a
// report written inside the folder it was made from is not read back as
// records.
const ReportMarker = ".wra-analysis-key"

// ingestFile loads one file; the error is for what stops the ingest.
func ingestFile(ctx context.Context, st Store, j job, opts Options) (FileResult, error) {
	fr := FileResult{Source: j.source, Bytes: j.size}
	if j.skip != "" {
		fr.Status, fr.Reason = Skipped, j.skip
		return fr, nil
	}
	fail := func(err error) (FileResult, error) {
		fr.Status, fr.Err = Failed, err
		return fr, nil
	}
	old, known, err := st.IngestedHash(ctx, j.source)
	if err != nil {
		return fr, err
	}
	file := model.File{Source: j.source}
	if known {
		// Only the hash tells whether the file changed.
		if file.SHA256, err = hashFile(j.path); err != nil {
			return fail(fmt.Errorf("%s: %w", j.source, err))
		}
		if old == file.SHA256 && !j.force {
			fr.Status = Unchanged
			return fr, nil
		}
	}
	openIt := openHashing
	if known {
		openIt = open
	}
	o, err := openIt(j.path, j.source)
	if err != nil {
		return fail(err)
	}
	kept := false // by a group of streams, which closes it
	defer func() {
		if !kept {
			o.close()
		}
	}()
	switch {
	case known:
	case o.sum != nil:
		// A new source is loaded whatever its hash, which the store waits
		// for at the end: a gzip file is hashed from the reads that its
		// decompression makes (for a k6 stream, the only read of it).
		file.Sum = o.sum
	default:
		// Any other is hashed beside the load, from a read of its own:
		// DuckDB's scanner reads a point stream itself.
		file.Sum = hashAlongside(j.path)
		defer func() {
			if !kept {
				file.Sum()
			}
		}()
	}
	o.R = &ctxReader{ctx: ctx, r: o.R}
	o.Strict = opts.Strict
	o.pos.report, o.meter = opts.meter.read, opts.meter
	f, err := detectOpened(o)
	if err != nil {
		return fail(err)
	}
	if f == nil {
		if opts.Strict {
			return fail(fmt.Errorf("%s: %w (--strict)", j.source, ErrUnknownFormat))
		}
		fr.Status, fr.Reason = Skipped, describeUnknown(o.head)
		return fr, nil
	}
	fr.Format = f.Name
	file.Format = f.Name
	if g := opts.streams; g.takes(f, o) {
		if err := g.makeRoom(ctx, st, j, opts); err != nil {
			return fr, err
		}
		kept = true
		return g.add(j, o, f, file, known), nil
	}
	if f.PassBeforeScan {
		opts.meter.passBeforeScan()
	}
	rows, err := st.Load(ctx, file, func(s model.Sink) error {
		return f.Read(&o.Input, readerSink(j, o, opts, s))
	})
	if err != nil {
		if ctx.Err() != nil {
			// Interrupted: the file's transaction was rolled back.
			return fr, ctx.Err()
		}
		if sk := (*SkipError)(nil); errors.As(err, &sk) {
			fr.Status, fr.Reason = Skipped, sk.Reason
			return fr, nil
		}
		return fail(loadError(j.source, err))
	}
	fr.Rows = rows
	fr.Broken, fr.Warning, fr.Reason = o.broken, fileWarning(&o.Input), o.note
	fr.Status = Loaded
	if known {
		fr.Status = Replaced
	}
	return fr, nil
}

// readerSink is the sink a reader of file j, opened as o, writes to: its
// values checked (guardSink) and labelled (labelSink), then written to s.
func readerSink(j job, o *opened, opts Options, s model.Sink) model.Sink {
	return &guardSink{name: j.source, in: &o.Input, Sink: &labelSink{Sink: s, manifest: j.man.LabelsFor(j.rel), override: opts.Labels, design: j.man.design(), name: j.source, rel: j.rel}}
}

// describeUnknown says what a file of no known format looks like.
func describeUnknown(head []byte) string {
	switch {
	case len(head) == 0:
		return "empty file"
	case len(head) >= 2 && (head[0] == 0xff && head[1] == 0xfe || head[0] == 0xfe && head[1] == 0xff):
		return "UTF-16 text (as PowerShell's > writes it): convert it to UTF-8"
	case !isText(head):
		return "binary content of no known format"
	}
	return "no known format"
}

func isText(b []byte) bool {
	for _, c := range b {
		if c == 0 {
			return false
		}
	}
	return true
}

// hashAlongside starts hashing a file and returns what waits for its hex
// SHA-256.
func hashAlongside(path string) func() (string, error) {
	type result struct {
		sum string
		err error
	}
	done := make(chan result, 1)
	go func() {
		sum, err := hashFile(path)
		done <- result{sum, err}
	}()
	return sync.OnceValues(func() (string, error) {
		r := <-done
		return r.sum, r.err
	})
}

func hashFile(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// LabelError is a label that does not fit its column.
type LabelError struct {
	File string
	Err  error
}

func (e *LabelError) Error() string { return e.File + ": " + e.Err.Error() }
func (e *LabelError) Unwrap() error { return e.Err }

// labelSink applies labels to what a reader writes: the manifest's fill
// what the record leaves unset, the command line's override everything.
type labelSink struct {
	model.Sink
	manifest map[string]string
	override map[string]string
	design   design
	name     string
	rel      string // the file's path below its folder, for [[reports]]
}

// LabelKeysLabel is the label that lists, comma-separated and sorted, the
// labels without a column of their own that the manifest or the command
// line set on a run, but for the manifest's no_split, its blocks and
// replicates and the calibration label: the labels that tell experiments
// apart, the factors of the experiment's design.
const LabelKeysLabel = "label_keys"

// The labels that name a run's roles in the design of the experiment
// beside its factors (label_keys): BlockKeysLabel lists the block labels
// it has (the manifest's blocks, or DefaultBlocks), ReplicateKeysLabel
// the manifest's replicates it has; CalibrationLabel names the
// calibration pair that covers a run without a start time (see the
// run_calibration view).
const (
	BlockKeysLabel     = "block_keys"
	ReplicateKeysLabel = "replicate_keys"
	CalibrationLabel   = "calibration"
)

// DefaultBlocks are the block labels of a folder whose manifest names
// none: trial, as the recording harness writes it.
var DefaultBlocks = []string{"trial"}

// design is what a manifest says of the roles of labels.
type design struct {
	noSplit, blocks, replicates []string
	heading                     *string  // HeadingLabel
	headings                    []string // Headings; nil where unset
	reports                     []ReportRule
	derived                     []derivedLabel
}

// DefaultHeadingLabel is the label a report's heading fills where the
// manifest does not name one.
const DefaultHeadingLabel = "server"

// headingLabel is the label a report's heading fills, "" for none.
func (d design) headingLabel() string {
	if d.heading == nil {
		return DefaultHeadingLabel
	}
	return *d.heading
}

// factor reports whether label k tells experiments apart.
func (d design) factor(k string) bool {
	return k != CalibrationLabel && !slices.Contains(d.noSplit, k) && !slices.Contains(d.blocks, k) && !slices.Contains(d.replicates, k)
}

// present lists, comma-separated, the keys of keys that r has, or "".
func present(r *model.Run, keys []string) string {
	var out []string
	for _, k := range keys {
		if _, ok := r.Label(k); ok {
			out = append(out, k)
		}
	}
	return strings.Join(out, ",")
}

// lineRuleLabels are the labels the manifest's [[reports]] rules without
// an above pattern give the report of the file that starts at line, a
// later rule's over an earlier one's; nil where none does. Run sets them;
// numberRounds reads them before, so that reports the rules tell apart
// are no rounds of one another.
func (s *labelSink) lineRuleLabels(line int) map[string]string {
	var out map[string]string
	for _, rr := range s.design.reports {
		if rr.above != nil || !rr.matches(s.rel, line) {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		maps.Copy(out, rr.Labels)
	}
	return out
}

func (s *labelSink) Run(r *model.Run) error {
	// [[reports]] rules by line, then the manifest's labels of the file
	// where the run has none, then the command line's over everything
	ruled := takeRuleKeys(r)
	lines := s.lineRuleLabels(r.Line)
	for _, k := range model.SortedKeys(lines) {
		if err := r.SetLabel(k, lines[k]); err != nil {
			return &LabelError{File: s.name, Err: fmt.Errorf("wra.toml [[reports]] %w", err)}
		}
		ruled = append(ruled, k)
	}
	for _, k := range model.SortedKeys(s.manifest) {
		if _, set := r.Label(k); !set {
			if err := r.SetLabel(k, s.manifest[k]); err != nil {
				return &LabelError{File: s.name, Err: fmt.Errorf("wra.toml %w", err)}
			}
		}
	}
	for _, k := range model.SortedKeys(s.override) {
		if err := r.SetLabel(k, s.override[k]); err != nil {
			return &LabelError{File: s.name, Err: fmt.Errorf("--label %w", err)}
		}
	}
	normalizeSettings(r)
	deriveEndpoint(r)
	for _, dl := range s.design.derived {
		if _, set := r.Label(dl.key); set {
			continue
		}
		if v, ok := dl.value(r); ok {
			if err := r.SetLabel(dl.key, v); err != nil {
				return &LabelError{File: s.name, Err: fmt.Errorf("wra.toml [labels.%s] from %s: %w", dl.key, dl.from, err)}
			}
			ruled = append(ruled, dl.key)
		}
	}
	var keys []string
	for _, set := range []map[string]string{s.manifest, s.override} {
		for k := range set {
			ruled = append(ruled, k)
		}
	}
	for _, k := range ruled {
		if _, own := r.Labels[k]; own && s.design.factor(k) && !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	if len(keys) > 0 {
		slices.Sort(keys)
		r.Labels[LabelKeysLabel] = strings.Join(keys, ",")
	}
	if rk := reportKeys(r, s.design, keys); len(rk) > 0 {
		r.Labels[ReportKeysLabel] = strings.Join(rk, ",")
	}
	for label, keys := range map[string][]string{BlockKeysLabel: s.design.blocks, ReplicateKeysLabel: s.design.replicates} {
		if v := present(r, keys); v != "" {
			if r.Labels == nil {
				r.Labels = map[string]string{}
			}
			r.Labels[label] = v
		}
	}
	applyExecutorLabel(r)
	return s.Sink.Run(r)
}

// BulkSamples hands a large per-point file to the store's own scanner
// when the sink inside has one.
func (s *labelSink) BulkSamples(run int, in *model.BulkInput) (*model.BulkResult, error) {
	if b, ok := s.Sink.(model.BulkSink); ok {
		return b.BulkSamples(run, in)
	}
	return nil, model.ErrBulkUnsupported
}

func (s *labelSink) Memory(m *model.MemoryPoint) error {
	if v, ok := s.override["server"]; ok {
		m.Server = v
	} else if m.Server == "" {
		m.Server = s.manifest["server"]
	}
	return s.Sink.Memory(m)
}

// ctxReader stops a reader when the ingest is cancelled (Ctrl-C), so that
// a long file is abandoned, and its transaction rolled back, at once.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

package ingest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/klauspost/compress/gzip"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"

	"github.com/wra-bench/wra/model"
)

// Input is one file handed to a reader.
type Input struct {
	// Name is the file's name in messages: its path relative to the
	// ingested root.
	Name string
	// Path is the file on disk, for readers that hand a large file to the
	// store's own scanner instead of reading R.
	Path string
	// Gzip tells that Path is gzip-compressed; R is always decompressed.
	Gzip bool
	// Bounded tells that a gzip file is too small to expand past its
	// limit (MaxExpansion), whatever it holds (WithinLimit).
	Bounded bool
	// R is the decompressed content.
	R io.Reader
	// Strict tells a reader to refuse a value it would otherwise store
	// as NULL with a warning (see Broken).
	Strict bool
	// Transcoded tells that R is not the file's bytes but their UTF-8
	// (the file is UTF-16): a reader must not hand Path to a scanner of
	// its own.
	Transcoded bool

	broken   []Broken // what the reader stored as NULL, in line order
	warnings []string // what else the reader says of the file (warn)
	// escaped lists the text that was not UTF-8, kept with its bytes
	// escaped (keepNonUTF8), in line order.
	escaped []Broken
	// note says what became of a file that stores no row of its own.
	note string

	meter *meter // the ingest's progress, for a store's scanner
}

// Format is one input format: how to recognise it and how to read it.
type Format struct {
	// Name names the format in ingested_files and in messages, such as
	// "wrk2" or "k6-ndjson".
	Name string
	// Priority orders detection where two formats could claim a file:
	// lower is tried first.
	Priority int
	// Detect reports whether the first bytes of a file (at most HeadBytes,
	// decompressed) are of this format.
	Detect func(head []byte) bool
	// Read decodes the input into the sink.
	Read func(in *Input, sink model.Sink) error
	// Bulk is set for the point streams and per-sample logs, which a
	// model.BulkSink scans with its own reader where it has one: they
	// are never read into a batch of small files, where they would be
	// decoded in Go, row by row, and every sample held until the batch
	// is stored (a small gzip file can hold millions).
	Bulk bool
	// PassBeforeScan tells that the reader reads the whole file before
	// it hands the file to the store's scanner, which then reads it
	// again (a JTL's reader maps its labels to runs first): alone or in
	// a group of streams, each of the two passes moves the progress bar
	// through half of the file's bytes (where the store has no scanner,
	// the second half is counted as the file ends).
	PassBeforeScan bool
	// Late tells that a report of this format may come after any amount
	// of the tool's own output (a line per request, progress lines), and
	// that its reader finds it wherever it is: a file that no format
	// claims from its head is looked through, window by window, for one
	// (DetectLate).
	Late bool
	// Feeds, set for a file that another file's reader reads with
	// itself (Locust's failures table, read with the statistics beside
	// it), returns that file's path for a path of this format, or "":
	// when this file is loaded anew, that one is read again even where
	// its own bytes did not change.
	Feeds func(path string) string
}

// HeadBytes is how much of a file detection looks at.
const HeadBytes = 64 << 10

var formats []*Format

// register adds a format to the detection list.
func register(f *Format) {
	formats = append(formats, f)
	sort.SliceStable(formats, func(i, j int) bool {
		if formats[i].Priority != formats[j].Priority {
			return formats[i].Priority < formats[j].Priority
		}
		return formats[i].Name < formats[j].Name
	})
}

// Formats lists the known formats in detection order.
func Formats() []*Format { return append([]*Format(nil), formats...) }

// Detect returns the format of the head of a file, or nil.
func Detect(head []byte) *Format {
	for _, f := range formats {
		if f.Detect(head) {
			return f
		}
	}
	return nil
}

// DetectLate returns the Late format that a window of a file's text
// (from a line start) holds a report of, or nil.
func DetectLate(window []byte) *Format {
	for _, f := range formats {
		if f.Late && f.Detect(window) {
			return f
		}
	}
	return nil
}

// detectOpened returns the format of an opened file: the one its head
// shows, else, for a text file longer than its head, the Late format of
// the first window of it that holds a report (detectBeyond). A file of
// another format is claimed by its head and never read further for
// detection.
func detectOpened(o *opened) (*Format, error) {
	if f := Detect(o.head); f != nil {
		return f, nil
	}
	if len(o.head) < HeadBytes || !isText(o.head) || o.Path == "" {
		return nil, nil
	}
	return detectBeyond(o.Path, o.Name)
}

// detectBeyond reads a text file in windows of 2 × HeadBytes, each
// overlapping the one before by HeadBytes and starting at a line, until a
// Late format claims one (a report of up to HeadBytes lies whole in some
// window), the file ends or a NUL byte shows it is not text. Memory stays
// bounded whatever the file's size.
func detectBeyond(path, name string) (*Format, error) {
	o, err := open(path, name)
	if err != nil {
		return nil, err
	}
	defer o.close()
	buf := make([]byte, 0, 2*HeadBytes)
	chunk := make([]byte, HeadBytes)
	for {
		n, err := io.ReadFull(o.R, chunk)
		if n > 0 {
			if bytes.IndexByte(chunk[:n], 0) >= 0 {
				return nil, nil
			}
			buf = append(buf, chunk[:n]...)
			if f := DetectLate(buf); f != nil {
				return f, nil
			}
			// Keep the last HeadBytes, from a line start.
			if len(buf) > HeadBytes {
				keep := buf[len(buf)-HeadBytes:]
				if i := bytes.IndexByte(keep, '\n'); i >= 0 {
					keep = keep[i+1:]
				}
				buf = append(buf[:0], keep...)
			}
		}
		switch {
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			return nil, nil
		case err != nil:
			return nil, err
		}
	}
}

// MaxExpansion bounds how far a gzip file may expand: a file whose content
// grows beyond MaxExpansion times its compressed size (and beyond
// MinExpansionLimit) is refused as a likely gzip bomb. Real k6 NDJSON
// streams compress about 20 to 1 (those of data/ladder 34 to 1). Up to
// MinExpansionLimit, no file is refused: its content is no more than a
// plain file of that size, which wra reads without a limit.
const (
	MaxExpansion      = 200
	MinExpansionLimit = 2 << 30
)

// maxDeflateRatio is the most that DEFLATE (RFC 1951) expands: a match of
// 258 bytes coded in 2 bits, 1032 bytes from each byte of the stream. A
// gzip file of any number of members holds at most maxDeflateRatio times
// its size, whatever its trailer says.
const maxDeflateRatio = 1032

// ExpansionLimit is the most content a gzip file of size bytes may hold.
func ExpansionLimit(size int64) int64 { return max(size*MaxExpansion, MinExpansionLimit) }

// WithinLimit tells that a gzip file of size bytes cannot hold more than
// its limit, whatever it holds: every file of up to MinExpansionLimit /
// maxDeflateRatio bytes (2 MiB). Its content need not be counted for the
// limit by a reader of its own beside a scanner's (k6Bulk).
func WithinLimit(size int64) bool { return size <= MinExpansionLimit/maxDeflateRatio }

// opened is a file opened for reading, decompressed where needed.
type opened struct {
	Input
	head  []byte
	close func() error
	pos   *position // bytes read from the file on disk
	// sum, set by openHashing for a gzip file, gives its hex SHA-256.
	sum func() (string, error)
}

// open opens a file, decompresses it if it is gzip, and reads its head.
func open(path, name string) (*opened, error) { return openFile(path, name, false) }

// openHashing is open that also hashes a gzip file from the reads of it
// that its decompression makes (opened.sum), rather than from a read of
// its own.
func openHashing(path, name string) (*opened, error) { return openFile(path, name, true) }

func openFile(path, name string, hashGzip bool) (*opened, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	// A buffer no larger than the file: a folder of small reports
	// would otherwise allocate and clear 256 KiB for each.
	pos := &position{r: f}
	br := bufio.NewReaderSize(pos, int(min(256<<10, max(4<<10, st.Size()+1))))
	o := &opened{Input: Input{Name: name, Path: path}, close: f.Close, pos: pos}
	magic, _ := br.Peek(2)
	var r io.Reader = br
	if bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		// Nothing of br is consumed yet: what it holds is all that was
		// read of the file.
		if seen, _ := br.Peek(br.Buffered()); hashGzip && int64(len(seen)) == pos.n {
			o.sum = pos.hash(seen)
		}
		zr, err := gzip.NewReader(br)
		if err != nil {
			f.Close()
			return nil, Errorf(name, 0, 0, "gzip: %v", err)
		}
		limit := ExpansionLimit(st.Size())
		o.Gzip = true
		o.Bounded = WithinLimit(st.Size())
		r = bufio.NewReaderSize(&limitedReader{r: zr, left: limit, name: name, limit: limit}, 256<<10)
	}
	rb := r.(*bufio.Reader)
	// A UTF-8 byte order mark (as Windows editors and .NET write text) is
	// no part of the content: detection and the readers start after it.
	if bom, _ := rb.Peek(3); bytes.Equal(bom, []byte{0xef, 0xbb, 0xbf}) {
		rb.Discard(3)
	}
	// A UTF-16 byte order mark says the text is UTF-16 (PowerShell's >
	// and Out-File write UTF-16LE): decoded to UTF-8, the mark dropped.
	if bom, _ := rb.Peek(2); len(bom) == 2 && (bom[0] == 0xff && bom[1] == 0xfe || bom[0] == 0xfe && bom[1] == 0xff) {
		dec := unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder()
		rb = bufio.NewReaderSize(transform.NewReader(rb, dec), 256<<10)
		o.Transcoded = true
	}
	head, err := rb.Peek(HeadBytes)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		f.Close()
		if se, ok := err.(*SyntaxError); ok {
			return nil, se
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	o.head = head
	o.R = rb
	return o, nil
}

// limitedReader fails, instead of ending quietly, when its input goes on
// past the limit.
type limitedReader struct {
	r     io.Reader
	left  int64
	limit int64
	name  string
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, &SyntaxError{File: l.name, Err: ErrTooLarge,
			Msg: fmt.Sprintf("%v: gzip content exceeds %d bytes (%dx its compressed size); refused as a likely gzip bomb", ErrTooLarge, l.limit, MaxExpansion)}
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if err != nil && err != io.EOF {
		return n, Errorf(l.name, 0, 0, "gzip: %v", err)
	}
	return n, err
}

// DetectFile opens a file and returns its detected format, or nil.
func DetectFile(path string) (*Format, error) {
	o, err := open(path, filepath.Base(path))
	if err != nil {
		return nil, err
	}
	defer o.close()
	return detectOpened(o)
}

// ReadFile reads one file with its detected format into the sink, for
// callers that do not need a store (tests, notebooks, other tools).
func ReadFile(path string, sink model.Sink) (*Format, error) {
	o, err := open(path, filepath.Base(path))
	if err != nil {
		return nil, err
	}
	defer o.close()
	f, err := detectOpened(o)
	if err != nil {
		return nil, err
	}
	if f == nil {
		return nil, fmt.Errorf("%s: %w", o.Name, ErrUnknownFormat)
	}
	return f, f.Read(&o.Input, &guardSink{Sink: sink, name: o.Name, in: &o.Input})
}

// hasPrefixLine reports whether any of the first lines of head starts with
// prefix after leading spaces are trimmed.
func hasLine(head []byte, pred func(line string) bool) bool {
	for len(head) > 0 {
		i := bytes.IndexByte(head, '\n')
		var line []byte
		if i < 0 {
			line, head = head, nil
		} else {
			line, head = head[:i], head[i+1:]
		}
		if pred(strings.TrimSpace(string(line))) {
			return true
		}
	}
	return false
}

// jsonKeys reads the top-level keys of the JSON object that a file's head
// holds, whatever its whitespace and key order (a document re-indented or
// sorted by a person or a tool reads like the original). The object starts
// at the first line that begins with "{"; lines before it (a tool's banner
// or progress) are skipped. A head cut inside the object gives the keys
// read before the cut. ok is false when there is no such object.
func jsonKeys(head []byte) (keys map[string]json.RawMessage, ok bool) {
	for len(head) > 0 {
		t := bytes.TrimLeft(head, " \t\r\n")
		if bytes.HasPrefix(t, []byte("{")) {
			head = t
			break
		}
		i := bytes.IndexByte(head, '\n')
		if i < 0 {
			return nil, false
		}
		head = head[i+1:]
	}
	dec := json.NewDecoder(bytes.NewReader(head))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	keys = map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		k, isKey := tok.(string)
		if err != nil || !isKey {
			break
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			keys[k] = nil
			break
		}
		keys[k] = v
	}
	return keys, len(keys) > 0
}

// hasJSONKeys reports whether the head's JSON object has every key named.
func hasJSONKeys(head []byte, names ...string) bool {
	keys, ok := jsonKeys(head)
	if !ok {
		return false
	}
	for _, n := range names {
		if _, ok := keys[n]; !ok {
			return false
		}
	}
	return true
}

// A Broken value is one a reader could not take as the figure it stands
// for (a negative CPU counter, a NaN, text where a number belongs) and
// stored as NULL, keeping its text in the run's labels as raw.<column>.
type Broken struct {
	Line   int
	Column string // as the file names it
	Text   string
}

// broke records a broken value the reader stored as NULL.
func (in *Input) broke(line int, column, text string) {
	in.broken = append(in.broken, Broken{Line: line, Column: column, Text: text})
}

// warn records a warning of the file that is not a broken value: a
// part of it, or a file read with it, that does not agree.
func (in *Input) warn(format string, args ...any) {
	in.warnings = append(in.warnings, fmt.Sprintf(format, args...))
}

// fileWarning is the one line that tells of a file's broken values and
// other warnings.
func fileWarning(in *Input) string {
	parts := in.warnings
	if e := escapedWarning(in.escaped); e != "" {
		parts = append([]string{e}, parts...)
	}
	if b := brokenWarning(in.broken); b != "" {
		parts = append([]string{b}, parts...)
	}
	return strings.Join(parts, "; ")
}

// keepNonUTF8 returns text that is not UTF-8 (a field of a tool on a
// Windows of another code page: GBK, Latin-1) with each byte that is not
// part of a UTF-8 character written as \xNN, and records it for the
// file's warning: the field is kept, and the file's figures with it.
func (in *Input) keepNonUTF8(line int, what, text string) string {
	esc := escapeNonUTF8(text)
	if in != nil {
		in.escaped = append(in.escaped, Broken{Line: line, Column: what, Text: esc})
	}
	return esc
}

// escapeNonUTF8 writes every byte of s that is not part of a UTF-8
// character as \xNN.
func escapeNonUTF8(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 {
			fmt.Fprintf(&b, "\\x%02x", s[i])
			i++
			continue
		}
		b.WriteString(s[i : i+n])
		i += n
	}
	return b.String()
}

// escapedWarning is the one line that tells of the text of a file that
// was not UTF-8, naming its first lines.
func escapedWarning(e []Broken) string {
	if len(e) == 0 {
		return ""
	}
	var parts []string
	for i, x := range e {
		if i == 5 {
			parts = append(parts, fmt.Sprintf("and %d more", len(e)-5))
			break
		}
		parts = append(parts, fmt.Sprintf("line %d %s %q", x.Line, x.Column, x.Text))
	}
	return fmt.Sprintf("%d %s not UTF-8, kept with each byte that is not UTF-8 written as \\xNN (save the file as UTF-8 to keep its text): %s",
		len(e), map[bool]string{true: "text", false: "texts"}[len(e) == 1], strings.Join(parts, "; "))
}

// brokenWarning is the one line that tells of a file's broken values,
// naming their lines: "broken values stored as NULL (the rest of each row
// loaded): line 3 cpu_postgres_s -41.73; line 7 cpu_postgres_s -3".
func brokenWarning(b []Broken) string {
	if len(b) == 0 {
		return ""
	}
	var parts []string
	for _, x := range b {
		parts = append(parts, fmt.Sprintf("line %d %s %s", x.Line, x.Column, x.Text))
	}
	return fmt.Sprintf("%d broken %s stored as NULL, the rest of each row loaded (--strict refuses the file): %s",
		len(b), map[bool]string{true: "value", false: "values"}[len(b) == 1], strings.Join(parts, "; "))
}

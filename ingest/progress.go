package ingest

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"io"
	"math"
	"os"
	"sync"

	"github.com/wra-bench/wra/model"
)

// Progress is the state of a long ingest. Bytes counts the files done and
// the part of the current file read so far, as the files are on disk
// (compressed for a .gz), so that a bar of Bytes against TotalBytes moves
// while one large file loads and its estimate of the time left comes from
// bytes, not from files.
type Progress struct {
	Files, TotalFiles int
	Bytes, TotalBytes int64
	Current           string
}

// minProgressStep is the least distance Bytes moves between two calls of
// Options.Progress within a file, which is otherwise a thousandth of the
// ingest: a reader reads 4 to 256 KiB at a time, and a bar needs fewer
// updates than that.
const minProgressStep = 64 << 10

// meter keeps the Progress of an ingest and reports it to
// Options.Progress, one call at a time: the walker reports each file as
// it starts and ends, and the file's reader, or the store's scanner when
// it reads the file itself, reports how far into it it is.
type meter struct {
	mu       sync.Mutex
	report   func(Progress)
	p        Progress
	done     int64 // bytes of the files finished
	size     int64 // of the current file
	at       int64 // bytes of the current file read (filePos)
	step     int64 // of Bytes between two reports within a file
	scanning bool  // the store's scanner reads the current file
	// readAt and scanAt are the Go reader's and the store's scanner's
	// positions in the current file, and twoPasses tells that its reader
	// reads it whole before the scanner does (passBeforeScan).
	readAt, scanAt int64
	twoPasses      bool
}

// filePos is how far into a file an ingest is, from the positions of
// its passes over it, the Go reader's and the store's scanner's: half
// of each for a file whose reader reads it whole before the scanner
// does (Format.PassBeforeScan), the further of the two for any other,
// which one or the other reads.
func filePos(twoPasses bool, readAt, scanAt int64) int64 {
	if twoPasses {
		return (readAt + scanAt) / 2
	}
	return max(readAt, scanAt)
}

// clearFile forgets the current file's positions.
func (m *meter) clearFile(size int64, scanning bool) {
	m.size, m.at, m.scanning = size, 0, scanning
	m.readAt, m.scanAt, m.twoPasses = 0, 0, false
}

// newMeter returns nil when there is nothing to report to; a nil meter
// does nothing.
func newMeter(report func(Progress), files int, total int64) *meter {
	if report == nil {
		return nil
	}
	return &meter{report: report, p: Progress{TotalFiles: files, TotalBytes: total}, step: max(total/1000, minProgressStep)}
}

// start begins file j.
func (m *meter) start(j job) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.clearFile(j.size, false)
	m.p.Current, m.p.Bytes = j.source, m.done
	m.report(m.p)
}

// setAside ends the current file without counting it: a group of
// streams reports it with the others (group).
func (m *meter) setAside() {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.clearFile(0, false)
	m.p.Current = ""
}

// groupFile is a file of a group (group): its size, and whether its
// reader reads it whole before the scanner does (Format.PassBeforeScan).
type groupFile struct {
	size           int64
	passBeforeScan bool
}

// group begins files read at once, as one: current names them. Each
// file's scan function reports how far into it the store's scanner is;
// the read function of a file whose reader passes over it before the
// scanner (passBeforeScan; nil for the others) reports how far that
// pass is, and each pass then counts half of the file's bytes. done
// ends them all.
func (m *meter) group(current string, files []groupFile) (read, scan []func(int64), done func()) {
	read, scan = make([]func(int64), len(files)), make([]func(int64), len(files))
	if m == nil {
		return read, scan, func() {}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var total int64
	for _, f := range files {
		total += f.size
	}
	m.clearFile(total, true)
	m.p.Current, m.p.Bytes = current, m.done
	m.report(m.p)
	var sum int64 // of the files' positions
	for i, f := range files {
		var readAt, scanAt int64
		// moved sets one pass's position, n bytes into the file.
		moved := func(pass *int64) func(int64) {
			return func(n int64) {
				m.mu.Lock()
				defer m.mu.Unlock()
				if n = min(n, f.size); n > *pass {
					was := filePos(f.passBeforeScan, readAt, scanAt)
					*pass = n
					sum += filePos(f.passBeforeScan, readAt, scanAt) - was
					m.advance(sum)
				}
			}
		}
		scan[i] = moved(&scanAt)
		if f.passBeforeScan {
			read[i] = moved(&readAt)
		}
	}
	return read, scan, func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		m.done += m.size
		m.clearFile(0, false)
		m.p.Files += len(files)
		m.p.Bytes, m.p.Current = m.done, ""
		m.report(m.p)
	}
}

// finish ends the current file.
func (m *meter) finish() {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.done += m.size
	m.clearFile(0, false)
	m.p.Files++
	m.p.Bytes, m.p.Current = m.done, ""
	m.report(m.p)
}

// read is the position of the Go reader in the current file. While the
// store's scanner reads the file, the Go reader is only a check beside
// it, and the scanner's position is the progress.
func (m *meter) read(n int64) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.scanning {
		m.readAt = max(m.readAt, n)
		m.advance(filePos(m.twoPasses, m.readAt, m.scanAt))
	}
}

// passBeforeScan tells that the current file's reader reads it whole
// before the store's scanner reads it again (Format.PassBeforeScan):
// the reader's pass then moves the bar through the first half of the
// file, the scanner's through the second.
func (m *meter) passBeforeScan() {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.twoPasses = true
}

// scan hands the current file's progress to the store's scanner: the
// function returned is model.BulkInput.Progress; done gives it back to
// the Go reader, for when the store has no scanner. Both are nil for a
// nil meter.
func (m *meter) scan() (progress func(int64), done func()) {
	if m == nil {
		return nil, func() {}
	}
	m.mu.Lock()
	m.scanning = true
	m.mu.Unlock()
	return func(n int64) {
			m.mu.Lock()
			defer m.mu.Unlock()
			m.scanAt = max(m.scanAt, n)
			m.advance(filePos(m.twoPasses, m.readAt, m.scanAt))
		}, func() {
			m.mu.Lock()
			m.scanning = false
			m.mu.Unlock()
		}
}

// bulkSamples hands the file to the store's scanner (b), which reports
// the progress while it reads the file (scan).
func (in *Input) bulkSamples(b model.BulkSink, run int, bi *model.BulkInput) (*model.BulkResult, error) {
	var scanned func()
	bi.Progress, scanned = in.meter.scan()
	defer scanned()
	return b.BulkSamples(run, bi)
}

// advance moves the position in the current file forward (never back,
// never past the file's size) and reports every step and at the file's
// end.
func (m *meter) advance(n int64) {
	n = min(n, m.size)
	if n <= m.at {
		return
	}
	m.at = n
	if b := m.done + n; b-m.p.Bytes >= m.step || n == m.size {
		m.p.Bytes = b
		m.report(m.p)
	}
}

// position counts the bytes read from a file as it is on disk, before
// any decompression, tells report of each new position (the meter's read,
// or a group's function for the file), and hashes the bytes once hash is
// called.
type position struct {
	r      *os.File
	n      int64
	report func(int64)
	mu     sync.Mutex
	h      hash.Hash
}

func (p *position) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.mu.Lock()
	if p.h != nil {
		p.h.Write(b[:n])
	}
	p.mu.Unlock()
	p.n += int64(n)
	if p.report != nil {
		p.report(p.n)
	}
	return n, err
}

// hash starts the SHA-256 of the file with the bytes read so far (seen)
// and hashes every byte read after them; the function returned finishes
// it, once: the part of the file not read by then is hashed from a read
// of its own (which leaves the reader's position alone), and reads after
// that are no longer hashed.
func (p *position) hash(seen []byte) func() (string, error) {
	p.h = sha256.New()
	p.h.Write(seen)
	return sync.OnceValues(func() (string, error) {
		p.mu.Lock()
		defer p.mu.Unlock()
		h := p.h
		p.h = nil
		if _, err := io.Copy(h, io.NewSectionReader(p.r, p.n, math.MaxInt64-p.n)); err != nil {
			return "", err
		}
		return hex.EncodeToString(h.Sum(nil)), nil
	})
}

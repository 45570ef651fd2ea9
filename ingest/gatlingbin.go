package ingest

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/wra-bench/wra/model"
)

// Gatling 3.13 on logs a simulation to simulation.log in a binary form
// of the records of the text log (gatling-core's LogFileDataWriter, read
// by gatling-charts' LogFileReader): big-endian numbers, a record header
// byte, times in ms from the run's start as 32-bit ints.
//
//	string        int32 length, then (length > 0) the bytes of Java's
//	              String and its coder byte: 0 Latin-1, 1 UTF-16 in
//	              the JVM's byte order (little-endian on x86 and ARM)
//	cached string int32 i; i >= 0: a string, remembered as i; i < 0: the
//	              string remembered as -i
//	0 RUN         version, simulation class, start (int64 epoch ms),
//	              description (strings); the scenarios (int32 count,
//	              strings); the assertions (int32 count, each int32
//	              length and that many bytes)
//	1 REQUEST     groups (int32 count, cached strings), name (cached),
//	              start, end (int32), OK (a byte, 1 or 0), message (cached)
//	2 USER        scenario (int32 index), start (a byte, 1) or end, time
//	3 GROUP       groups, start, end, cumulated response time, OK
//	4 ERROR       message (cached), time
//
// The file ends after a whole record.

func init() {
	register(&Format{Name: "gatling-simulation-log-binary", Priority: 40, Detect: detectGatlingBinLog, Read: readGatlingBinLog, Bulk: true})
}

// Gatling's record headers.
const (
	gatlingBinRun = iota
	gatlingBinRequest
	gatlingBinUser
	gatlingBinGroup
	gatlingBinError
)

// gatlingBinMaxString bounds a string's length: Gatling writes request
// names, group names and messages; a larger length is not a log.
const gatlingBinMaxString = 1 << 20

// detectGatlingBinLog claims a head that starts with a RUN record: the
// header byte 0, a Gatling version ("3.13.1") as a Latin-1 string and
// the simulation class as a string.
func detectGatlingBinLog(head []byte) bool {
	if len(head) < 1+4 || head[0] != gatlingBinRun {
		return false
	}
	n := int(binary.BigEndian.Uint32(head[1:]))
	if n < 3 || n > 64 || len(head) < 5+n+1+4 {
		return false
	}
	v := head[5 : 5+n]
	if v[0] < '1' || v[0] > '9' || !strings.Contains(string(v), ".") || head[5+n] != 0 {
		return false
	}
	for _, c := range v {
		if c <= ' ' || c > '~' {
			return false
		}
	}
	cls := int32(binary.BigEndian.Uint32(head[6+n:]))
	return cls > 0 && cls <= gatlingBinMaxString
}

// gatlingBinReader reads the numbers and strings of a binary log,
// counting its bytes for errors.
type gatlingBinReader struct {
	in     *Input
	r      *bufio.Reader
	off    int64 // bytes read
	record int   // the record being read, the RUN record 1
	at     int64 // offset of the record being read
	cache  map[int32]string
	buf    []byte
}

// errorf places an error at the record being read.
func (g *gatlingBinReader) errorf(format string, args ...any) error {
	return Errorf(g.in.Name, 0, 0, "Gatling binary simulation.log: record %d at byte %d: %s", g.record, g.at, fmt.Sprintf(format, args...))
}

// full reads len(p) bytes; a file that ends inside a record is cut.
func (g *gatlingBinReader) full(p []byte, what string) error {
	n, err := io.ReadFull(g.r, p)
	g.off += int64(n)
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return g.errorf("the file ends inside the record, in its %s (a cut file?)", what)
	}
	return err
}

func (g *gatlingBinReader) int32(what string) (int32, error) {
	var b [4]byte
	if err := g.full(b[:], what); err != nil {
		return 0, err
	}
	return int32(binary.BigEndian.Uint32(b[:])), nil
}

// time reads a time in ms from the run's start.
func (g *gatlingBinReader) time(start int64, what string) (int64, error) {
	t, err := g.int32(what)
	return start + int64(t), err
}

func (g *gatlingBinReader) bool(what string) (bool, error) {
	var b [1]byte
	if err := g.full(b[:], what); err != nil {
		return false, err
	}
	if b[0] > 1 {
		return false, g.errorf("%s: expected a byte 0 or 1, found %d", what, b[0])
	}
	return b[0] == 1, nil
}

// string reads a string: Java's bytes and coder.
func (g *gatlingBinReader) string(what string) (string, error) {
	n, err := g.int32(what)
	if err != nil || n == 0 {
		return "", err
	}
	if n < 0 || n > gatlingBinMaxString {
		return "", g.errorf("%s: a string of %d bytes", what, n)
	}
	if cap(g.buf) < int(n)+1 {
		g.buf = make([]byte, int(n)+1)
	}
	b := g.buf[:n+1]
	if err := g.full(b, what); err != nil {
		return "", err
	}
	s, coder := b[:n], b[n]
	switch coder {
	case 0: // Latin-1
		var sb strings.Builder
		for _, c := range s {
			sb.WriteRune(rune(c))
		}
		return sb.String(), nil
	case 1: // UTF-16, little-endian
		if n%2 != 0 {
			return "", g.errorf("%s: UTF-16 text of an odd %d bytes", what, n)
		}
		u := make([]uint16, n/2)
		for i := range u {
			u[i] = binary.LittleEndian.Uint16(s[2*i:])
		}
		out := string(utf16.Decode(u))
		if !utf8.ValidString(out) {
			return "", g.errorf("%s: not text", what)
		}
		return out, nil
	}
	return "", g.errorf("%s: expected the string's coder 0 (Latin-1) or 1 (UTF-16), found %d", what, coder)
}

// assertion reads over an assertion of the RUN record: LogFileDataWriter
// writes it as an int32 length and that many bytes (its serialized form),
// with no coder byte: it is no Java String.
func (g *gatlingBinReader) assertion() error {
	n, err := g.int32("assertion length")
	if err != nil {
		return err
	}
	if n < 0 || n > gatlingBinMaxString {
		return g.errorf("assertion: %d bytes", n)
	}
	if cap(g.buf) < int(n) {
		g.buf = make([]byte, int(n))
	}
	return g.full(g.buf[:n], "assertion")
}

// cached reads a cached string.
func (g *gatlingBinReader) cached(what string) (string, error) {
	i, err := g.int32(what)
	if err != nil {
		return "", err
	}
	if i < 0 {
		s, ok := g.cache[-i]
		if !ok {
			return "", g.errorf("%s: the string remembered as %d was never written", what, -i)
		}
		return s, nil
	}
	s, err := g.string(what)
	g.cache[i] = s
	return s, err
}

// groups reads a group path, joined by "," as the text log writes it.
func (g *gatlingBinReader) groups() (string, error) {
	n, err := g.int32("group count")
	if err != nil {
		return "", err
	}
	if n < 0 || n > 1024 {
		return "", g.errorf("a group path of %d groups", n)
	}
	path := make([]string, n)
	for i := range path {
		if path[i], err = g.cached("group name"); err != nil {
			return "", err
		}
	}
	return strings.Join(path, ","), nil
}

// readGatlingBinLog reads a binary simulation.log into the runs the text
// log gives (readGatlingLog: a run per request name and group path, the
// run of all requests first), and each request into samples.
func readGatlingBinLog(in *Input, sink model.Sink) error {
	g := &gatlingBinReader{in: in, r: bufio.NewReaderSize(in.R, 64<<10), cache: map[int32]string{}, record: 1}
	var hdr [1]byte
	if err := g.full(hdr[:], "header"); err != nil || hdr[0] != gatlingBinRun {
		return Errorf(in.Name, 0, 0, "Gatling binary simulation.log: expected the RUN record first")
	}
	version, err := g.string("Gatling version")
	if err != nil {
		return err
	}
	if _, err := g.string("simulation class"); err != nil {
		return err
	}
	var b [8]byte
	if err := g.full(b[:], "start time"); err != nil {
		return err
	}
	start := int64(binary.BigEndian.Uint64(b[:]))
	if start < 0 || start > 1<<50 {
		return g.errorf("start: expected a time in epoch milliseconds, found %d", start)
	}
	if _, err := g.string("run description"); err != nil {
		return err
	}
	for _, what := range []string{"scenario", "assertion"} {
		n, err := g.int32(what + " count")
		if err != nil {
			return err
		}
		if n < 0 || n > 1<<16 {
			return g.errorf("%d %ss", n, what)
		}
		for range n {
			if what == "scenario" {
				_, err = g.string("scenario name")
			} else {
				err = g.assertion()
			}
			if err != nil {
				return err
			}
		}
	}
	ls := newSampleRuns(gatlingMethod)
	ls.withTotal("Global Information", 1)
	ls.streamTo(sink)
	users := 0
	for {
		g.record++
		g.at = g.off
		h, err := g.r.ReadByte()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		g.off++
		switch h {
		case gatlingBinRequest:
			s, err := g.request(start)
			if err != nil {
				return err
			}
			if err := ls.add(s); err != nil {
				return err
			}
		case gatlingBinUser:
			if _, err := g.int32("scenario"); err != nil {
				return err
			}
			st, err := g.bool("start or end")
			if err != nil {
				return err
			}
			if _, err := g.int32("time"); err != nil {
				return err
			}
			if st {
				users++
			}
		case gatlingBinGroup:
			if _, err := g.groups(); err != nil {
				return err
			}
			for _, what := range []string{"start", "end", "cumulated response time"} {
				if _, err := g.int32(what); err != nil {
					return err
				}
			}
			if _, err := g.bool("status"); err != nil {
				return err
			}
		case gatlingBinError:
			if _, err := g.cached("error message"); err != nil {
				return err
			}
			if _, err := g.int32("time"); err != nil {
				return err
			}
		default:
			return g.errorf("expected a record header 1 to 4 (REQUEST, USER, GROUP, ERROR), found %d", h)
		}
	}
	if len(ls.order) == 0 {
		return Errorf(in.Name, 0, 0, "Gatling binary simulation.log holds no REQUEST record")
	}
	ls.total.run.Line = ls.order[0].run.Line
	for _, j := range append([]*jtlRun{ls.total}, ls.order...) {
		j.run.ToolVersion = version
		runLabel(j.run, "users", strconv.Itoa(users))
	}
	return ls.store(sink)
}

// request reads a REQUEST record.
func (g *gatlingBinReader) request(start int64) (*jtlSample, error) {
	group, err := g.groups()
	if err != nil {
		return nil, err
	}
	name, err := g.cached("request name")
	if err != nil {
		return nil, err
	}
	t0, err := g.time(start, "start")
	if err != nil {
		return nil, err
	}
	t1, err := g.time(start, "end")
	if err != nil {
		return nil, err
	}
	ok, err := g.bool("status")
	if err != nil {
		return nil, err
	}
	msg, err := g.cached("message")
	if err != nil {
		return nil, err
	}
	if t1 < t0 {
		return nil, g.errorf("the request ends at %d ms, before its start at %d ms", t1-start, t0-start)
	}
	return &jtlSample{label: name, kind: group, line: g.record, ts: t0, ms: t1 - t0, success: ok, message: msg, bytes: -1}, nil
}

package ingest

import "io"

// A tool that draws on a terminal (plow 1.0 whatever its output) writes
// the terminal's control sequences into a file it is redirected to: "\r
// ESC[K" (clear the line) before each line and "ESC[24A" (cursor up 24
// lines) before a redrawn report. They are no part of the text: the
// reader of such a tool reads its input through noTerminalCodes.

// noTerminalCodes drops the control sequences (ESC [ parameters, a final
// byte) of the reader it wraps.
type noTerminalCodes struct {
	r     io.Reader
	state int // 0 text, 1 after ESC, 2 inside ESC [
}

func (t *noTerminalCodes) Read(p []byte) (int, error) {
	for {
		n, err := t.r.Read(p)
		n = t.filter(p[:n])
		if n > 0 || err != nil {
			return n, err
		}
	}
}

// filter removes the control sequences of b in place and returns the
// length of what is left; a sequence cut between two reads is followed
// by state.
func (t *noTerminalCodes) filter(b []byte) int {
	w := 0
	for _, c := range b {
		switch t.state {
		case 0:
			if c == 0x1b {
				t.state = 1
				continue
			}
			b[w] = c
			w++
		case 1:
			if c == '[' {
				t.state = 2
				continue
			}
			t.state = 0
			b[w] = c // a lone ESC: only the ESC is dropped
			w++
		case 2:
			if c >= 0x40 && c <= 0x7e {
				t.state = 0
			}
		}
	}
	return w
}

// stripTerminalCodes returns head without its control sequences (for
// detection), itself when it has none.
func stripTerminalCodes(head []byte) []byte {
	for _, c := range head {
		if c == 0x1b {
			t := &noTerminalCodes{}
			b := append([]byte(nil), head...)
			return b[:t.filter(b)]
		}
	}
	return head
}

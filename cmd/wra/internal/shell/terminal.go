package shell

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/ergochat/readline"
	"golang.org/x/term"

	"github.com/wra-bench/wra/report"
)

// Options are the settings of a shell.
type Options struct {
	// Format of results at the start; .format changes it.
	Format report.Format
	// HistoryFile keeps the statements typed, one a line, across
	// sessions; "" keeps none. Its folder is made when missing.
	HistoryFile string
	// Banner is printed on the error stream before the first prompt.
	Banner string
	// Plain reads lines as the terminal's own line discipline gives
	// them, without editing, completion or recall (history is still
	// kept): for a terminal that does not answer the line editor's
	// question of where its cursor is (TERM=dumb, as in Emacs's shell).
	Plain bool
	// Interrupts, when set, stop the statement running when one comes
	// (the process's SIGINT: Ctrl-C during a query), and the shell goes
	// on; one that comes between statements is dropped.
	Interrupts <-chan os.Signal
}

// Run runs the shell on the terminal tty (its input, and what is put in
// raw mode while a line is edited), writing results to out and errors
// to errOut, until .quit or Ctrl-D.
func Run(ctx context.Context, st Store, tty *os.File, out, errOut io.Writer, o Options) error {
	if o.Format == "" {
		o.Format = report.Table
	}
	if o.HistoryFile != "" {
		if err := os.MkdirAll(filepath.Dir(o.HistoryFile), 0o700); err != nil {
			return fmt.Errorf("history %s: %w", o.HistoryFile, err)
		}
	}
	if o.Banner != "" {
		fmt.Fprintln(errOut, o.Banner)
	}
	if o.Plain {
		s := &session{st: st, out: out, err: errOut, format: o.Format, interrupts: o.Interrupts}
		return s.loop(ctx, &plainReader{in: bufio.NewReader(tty), out: out, history: o.HistoryFile})
	}
	fd := int(tty.Fd())
	cfg := &readline.Config{
		Prompt:                 Prompt,
		HistoryFile:            o.HistoryFile,
		DisableAutoSaveHistory: true, // a statement is saved whole, once it ends
		HistoryLimit:           10000,
		AutoComplete:           &completer{ctx: ctx, st: st},
		Stdin:                  tty,
		Stdout:                 out,
		Stderr:                 errOut,
		FuncIsTerminal:         func() bool { return term.IsTerminal(fd) },
		FuncGetSize: func() (int, int) {
			w, h, err := term.GetSize(fd)
			if err != nil {
				return 80, 24
			}
			return w, h
		},
	}
	if rawMode != nil {
		var restore func() error
		cfg.FuncMakeRaw = func() (err error) {
			restore, err = rawMode(fd)
			return err
		}
		cfg.FuncExitRaw = func() error {
			if restore == nil {
				return nil
			}
			err := restore()
			restore = nil
			return err
		}
	}
	rl, err := readline.NewFromConfig(cfg)
	if err != nil {
		return err
	}
	defer rl.Close()
	s := &session{st: st, out: rl.Stdout(), err: rl.Stderr(), format: o.Format, interrupts: o.Interrupts}
	return s.loop(ctx, terminalReader{rl})
}

// terminalReader is readline as the loop's lineReader.
type terminalReader struct{ *readline.Instance }

func (t terminalReader) Readline() (string, error) {
	line, err := t.Instance.Readline()
	if errors.Is(err, readline.ErrInterrupt) {
		return "", errInterrupt
	}
	return line, err
}

// plainReader reads whole lines, and appends history to its file.
type plainReader struct {
	in      *bufio.Reader
	out     io.Writer
	prompt  string
	history string
}

func (p *plainReader) SetPrompt(s string) { p.prompt = s }

func (p *plainReader) Readline() (string, error) {
	io.WriteString(p.out, p.prompt)
	line, err := p.in.ReadString('\n')
	if err == io.EOF && line != "" {
		err = nil
	}
	return strings.TrimRight(line, "\r\n"), err
}

func (p *plainReader) SaveToHistory(s string) error {
	if p.history == "" {
		return nil
	}
	f, err := os.OpenFile(p.history, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	_, err = io.WriteString(f, s+"\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// completer completes the word before the cursor with a command (at the
// start of a line), or the name of a table, view, macro or column.
type completer struct {
	ctx   context.Context
	st    Store
	names []string // read at the first completion
}

var commands = []string{".tables", ".schema", ".format", ".help", ".quit", ".exit", `\d`, `\q`, `\?`}

func (c *completer) Do(line []rune, pos int) ([][]rune, int) {
	start := pos
	for start > 0 && !unicode.IsSpace(line[start-1]) && !strings.ContainsRune("(),;=<>'", line[start-1]) {
		start--
	}
	word := string(line[start:pos])
	var cands []string
	if strings.TrimSpace(string(line[:start])) == "" && (strings.HasPrefix(word, ".") || strings.HasPrefix(word, `\`)) {
		cands = commands
	} else if fields := strings.Fields(string(line[:start])); len(fields) > 0 && fields[0] == ".format" {
		for _, f := range report.Formats {
			cands = append(cands, string(f))
		}
	} else {
		cands = c.relationNames()
	}
	var out [][]rune
	for _, n := range cands {
		if strings.HasPrefix(n, word) {
			out = append(out, []rune(n[len(word):]))
		}
	}
	return out, len([]rune(word))
}

func (c *completer) relationNames() []string {
	if c.names != nil {
		return c.names
	}
	rels, err := c.st.Relations(c.ctx)
	if err != nil {
		return nil
	}
	seen := map[string]bool{}
	for _, r := range rels {
		names := []string{r.Name}
		for _, col := range r.Columns {
			names = append(names, col.Name)
		}
		for _, n := range names {
			if !seen[n] {
				seen[n] = true
				c.names = append(c.names, n)
			}
		}
	}
	return c.names
}

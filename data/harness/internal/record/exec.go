package record

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// command runs one load generator or helper: its own process group (so that
// a timeout or an interrupt kills everything it started), bounded by timeout,
// stdout to a file byte for byte, stderr kept for the log.
type command struct {
	Name    string
	Args    []string
	Env     []string // added to the harness's environment
	Dir     string
	Timeout time.Duration
	Stdout  string // file to write stdout to; "" discards it
	OK      []int  // accepted exit codes besides 0
}

// String is the command line as a shell would take it.
func (c command) String() string {
	parts := make([]string, 0, len(c.Args)+1)
	for _, a := range append([]string{c.Name}, c.Args...) {
		if strings.HasPrefix(a, "$") && shellQuote(a[1:]) == a[1:] {
			parts = append(parts, a) // a variable the reader substitutes: $WRK2, $WORK/...
			continue
		}
		parts = append(parts, shellQuote(a))
	}
	return strings.Join(parts, " ")
}

// ShellQuote is s as one word of a POSIX shell: as it is where it has no
// character the shell reads specially, else in single quotes.
func ShellQuote(s string) string { return shellQuote(s) }

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=,@%+", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// result of a finished command.
type result struct {
	ExitCode int
	Stderr   []byte
	Wall     time.Duration
}

// run executes c and fails unless it exits 0 or with a code in c.OK.
func run(ctx context.Context, c command, log io.Writer) (result, error) {
	var res result
	if c.Timeout <= 0 {
		return res, fmt.Errorf("%s: no timeout", c.Name)
	}
	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.Name, c.Args...)
	cmd.Dir = c.Dir
	cmd.Env = append(os.Environ(), c.Env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL} // dies with the harness
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	var out *os.File
	if c.Stdout != "" {
		f, err := os.Create(c.Stdout)
		if err != nil {
			return res, err
		}
		out = f
		cmd.Stdout = f
	}
	fmt.Fprintf(log, "$ %s\n", c)
	start := time.Now()
	err := cmd.Run()
	res.Wall = time.Since(start)
	res.Stderr = stderr.Bytes()
	if out != nil {
		if cerr := out.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}
	if len(res.Stderr) > 0 {
		fmt.Fprintf(log, "%s", indent(res.Stderr))
	}
	var exitErr *exec.ExitError
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		return res, fmt.Errorf("%s: killed after its %s time limit", c, c.Timeout)
	case errors.As(err, &exitErr):
		res.ExitCode = exitErr.ExitCode()
		for _, ok := range c.OK {
			if res.ExitCode == ok {
				return res, nil
			}
		}
		return res, fmt.Errorf("%s: exit code %d\n%s", c, res.ExitCode, indent(tail(res.Stderr, 2000)))
	case err != nil:
		return res, fmt.Errorf("%s: %w", c, err)
	}
	return res, nil
}

func indent(b []byte) string {
	s := strings.TrimRight(string(b), "\n")
	if s == "" {
		return ""
	}
	return "  | " + strings.ReplaceAll(s, "\n", "\n  | ") + "\n"
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

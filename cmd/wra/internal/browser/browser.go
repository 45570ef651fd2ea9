// Package browser opens a written page, such as the report of wra
// analyze, in the desktop's default browser: $BROWSER when set, else
// open on macOS, the URL handler on Windows, xdg-open elsewhere when a
// graphical session is there. What it needs from the process (the
// environment, the PATH, starting a program) is given to it, so that
// the choice of the command is tested without starting anything.
package browser

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
)

// System is what opening a page needs from the process.
type System struct {
	GOOS     string // runtime.GOOS
	Getenv   func(string) string
	LookPath func(string) (string, error)
	// Start starts a program without waiting for it.
	Start func(name string, args ...string) error
}

// NoBrowserError says why no browser could be opened.
type NoBrowserError struct{ Reason string }

func (e *NoBrowserError) Error() string { return "no browser to open: " + e.Reason }

// FileURL is the file:// URL of a local file.
func FileURL(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive: file:///C:/...
	}
	return (&url.URL{Scheme: "file", Path: p}).String(), nil
}

// Command is the program and its arguments that open u.
func Command(sys System, u string) (string, []string, error) {
	if b := sys.Getenv("BROWSER"); b != "" {
		// As xdg-open and Python's webbrowser read it: commands separated
		// by colons, the first one found is used, %s is the URL.
		for _, c := range strings.Split(b, ":") {
			f := strings.Fields(c)
			if len(f) == 0 {
				continue
			}
			if _, err := sys.LookPath(f[0]); err != nil {
				continue
			}
			args, placed := make([]string, 0, len(f)), false
			for _, a := range f[1:] {
				if strings.Contains(a, "%s") {
					a, placed = strings.ReplaceAll(a, "%s", u), true
				}
				args = append(args, a)
			}
			if !placed {
				args = append(args, u)
			}
			return f[0], args, nil
		}
		return "", nil, &NoBrowserError{Reason: fmt.Sprintf("no command of $BROWSER (%s) is on the PATH", b)}
	}
	switch sys.GOOS {
	case "darwin":
		return "open", []string{u}, nil
	case "windows":
		return "rundll32", []string{"url.dll,FileProtocolHandler", u}, nil
	}
	if sys.Getenv("DISPLAY") == "" && sys.Getenv("WAYLAND_DISPLAY") == "" {
		return "", nil, &NoBrowserError{Reason: "no graphical session ($DISPLAY and $WAYLAND_DISPLAY are unset) and no $BROWSER"}
	}
	if _, err := sys.LookPath("xdg-open"); err != nil {
		return "", nil, &NoBrowserError{Reason: "xdg-open is not on the PATH (Debian: apt-get install xdg-utils) and no $BROWSER"}
	}
	return "xdg-open", []string{u}, nil
}

// Open opens the local file at path in the default browser and returns
// the command it started.
func Open(sys System, path string) (string, error) {
	u, err := FileURL(path)
	if err != nil {
		return "", err
	}
	name, args, err := Command(sys, u)
	if err != nil {
		return "", err
	}
	if sys.Start == nil {
		return "", &NoBrowserError{Reason: "this process cannot start programs"}
	}
	if err := sys.Start(name, args...); err != nil {
		return "", fmt.Errorf("%s: %w", name, err)
	}
	return name, nil
}

package browser

import (
	"errors"
	"os/exec"
	"reflect"
	"strings"
	"testing"
)

func system(goos string, env map[string]string, onPath ...string) System {
	return System{
		GOOS:   goos,
		Getenv: func(k string) string { return env[k] },
		LookPath: func(name string) (string, error) {
			for _, p := range onPath {
				if p == name {
					return "/usr/bin/" + name, nil
				}
			}
			return "", exec.ErrNotFound
		},
	}
}

func TestCommand(t *testing.T) {
	const u = "file:///tmp/r/index.html"
	for _, tc := range []struct {
		name    string
		sys     System
		want    []string // program and arguments
		noneWhy string   // part of the NoBrowserError
	}{
		{"macOS", system("darwin", nil), []string{"open", u}, ""},
		{"Windows", system("windows", nil), []string{"rundll32", "url.dll,FileProtocolHandler", u}, ""},
		{"X11", system("linux", map[string]string{"DISPLAY": ":0"}, "xdg-open"), []string{"xdg-open", u}, ""},
		{"Wayland", system("freebsd", map[string]string{"WAYLAND_DISPLAY": "wayland-0"}, "xdg-open"), []string{"xdg-open", u}, ""},
		{"no session", system("linux", nil, "xdg-open"), nil, "no graphical session"},
		{"no xdg-open", system("linux", map[string]string{"DISPLAY": ":0"}), nil, "xdg-open is not on the PATH"},
		{"$BROWSER", system("linux", map[string]string{"BROWSER": "firefox"}, "firefox"), []string{"firefox", u}, ""},
		{"$BROWSER %s", system("linux", map[string]string{"BROWSER": "lynx -dump %s"}, "lynx"), []string{"lynx", "-dump", u}, ""},
		{"$BROWSER list", system("darwin", map[string]string{"BROWSER": "chromium --new-window:w3m"}, "w3m"), []string{"w3m", u}, ""},
		{"$BROWSER none", system("darwin", map[string]string{"BROWSER": "chromium:w3m"}), nil, "no command of $BROWSER (chromium:w3m)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name, args, err := Command(tc.sys, u)
			if tc.noneWhy != "" {
				var nb *NoBrowserError
				if !errors.As(err, &nb) || !strings.Contains(nb.Reason, tc.noneWhy) {
					t.Fatalf("got %q %q %v, want a NoBrowserError saying %q", name, args, err, tc.noneWhy)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := append([]string{name}, args...); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestFileURL(t *testing.T) {
	got, err := FileURL("/tmp/a report/index#1.html")
	if err != nil {
		t.Fatal(err)
	}
	if want := "file:///tmp/a%20report/index%231.html"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestOpenStarts(t *testing.T) {
	sys := system("linux", map[string]string{"DISPLAY": ":0"}, "xdg-open")
	var started []string
	sys.Start = func(name string, args ...string) error {
		started = append([]string{name}, args...)
		return nil
	}
	name, err := Open(sys, "/tmp/r/index.html")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"xdg-open", "file:///tmp/r/index.html"}; name != "xdg-open" || !reflect.DeepEqual(started, want) {
		t.Errorf("started %q (%s), want %q", started, name, want)
	}
	sys.Start = func(string, ...string) error { return exec.ErrNotFound }
	if _, err := Open(sys, "/tmp/r/index.html"); !errors.Is(err, exec.ErrNotFound) || !strings.HasPrefix(err.Error(), "xdg-open: ") {
		t.Errorf("a failed start gives %v", err)
	}
}

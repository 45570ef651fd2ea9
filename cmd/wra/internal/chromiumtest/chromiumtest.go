// Package chromiumtest runs headless Chromium for the tests of the
// report's pages: Find looks the browser up (skipping the test when there
// is none, failing it when WRA_REQUIRE_CHROMIUM is set, as CI sets it),
// Run runs it offline on a local file, DumpDOM and Screenshot return what
// it built and drew, Ink and Differ count the pixels of screenshots. It is
// imported by tests only.
package chromiumtest

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Find finds Debian's chromium (or another Chromium build). The test is
// skipped when there is none, unless WRA_REQUIRE_CHROMIUM is set.
func Find(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("WRA_REQUIRE_CHROMIUM") != "" {
		t.Fatal("chromium is not installed and WRA_REQUIRE_CHROMIUM is set (apt-get install chromium)")
	}
	t.Skip("chromium is not installed (apt-get install chromium); set WRA_REQUIRE_CHROMIUM=1 to make this a failure")
	return ""
}

// Eager turns Chromium's lazy loading of images off: an image marked
// loading="lazy" then loads before the load event, which a screenshot
// waits for, instead of once layout finds it near the view.
const Eager = "--blink-settings=lazyLoadEnabled=false"

// Run runs headless Chromium bin offline with a profile of its own in
// dir and returns what it printed on stdout (the DOM for --dump-dom).
func Run(t testing.TB, bin, dir string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	base := []string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", "--user-data-dir=" + filepath.Join(dir, "profile"),
	}
	cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
	// Without a session bus Chromium waits seconds for D-Bus; tell it
	// there is none.
	cmd.Env = append(os.Environ(), "DBUS_SESSION_BUS_ADDRESS=disabled:")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	defer func() { t.Logf("chromium %s: %v", args[0], time.Since(start)) }()
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", bin, strings.Join(args, " "), err, stderr.Bytes())
	}
	return stdout.Bytes()
}

// DumpDOM loads the local file page in headless Chromium and returns the
// DOM it built.
func DumpDOM(t testing.TB, bin, dir, page string) string {
	t.Helper()
	return string(Run(t, bin, dir, "--dump-dom", "file://"+page))
}

// Screenshot loads the local file page in headless Chromium in a window
// of w × h pixels, with Chromium's further arguments args, and returns
// what it drew once the page had loaded.
func Screenshot(t testing.TB, bin, dir, page string, w, h int, args ...string) image.Image {
	t.Helper()
	shot, err := os.CreateTemp(dir, "shot-*.png")
	if err != nil {
		t.Fatal(err)
	}
	shot.Close()
	args = append([]string{"--screenshot=" + shot.Name(), fmt.Sprintf("--window-size=%d,%d", w, h), "--hide-scrollbars"}, args...)
	Run(t, bin, dir, append(args, "file://"+page)...)
	f, err := os.Open(shot.Name())
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot %s: %v", shot.Name(), err)
	}
	return img
}

// Ink counts the pixels of img, one in every 4 × 4, that are not nearly
// white: how much a page drew.
func Ink(img image.Image) int {
	b, n := img.Bounds(), 0
	for y := b.Min.Y; y < b.Max.Y; y += 4 {
		for x := b.Min.X; x < b.Max.X; x += 4 {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r+g+bl < 3*0xE000 {
				n++
			}
		}
	}
	return n
}

// Differ counts the pixels, one in every 4 × 4 of the larger bounds, at
// which a and b differ by more than a tenth of the range in a channel
// (a pixel outside either image differs).
func Differ(a, b image.Image) int {
	u, n := a.Bounds().Union(b.Bounds()), 0
	far := func(x, y uint32) bool { return max(x, y)-min(x, y) > 0xFFFF/10 }
	for y := u.Min.Y; y < u.Max.Y; y += 4 {
		for x := u.Min.X; x < u.Max.X; x += 4 {
			p := image.Pt(x, y)
			if !p.In(a.Bounds()) || !p.In(b.Bounds()) {
				n++
				continue
			}
			r1, g1, b1, _ := a.At(x, y).RGBA()
			r2, g2, b2, _ := b.At(x, y).RGBA()
			if far(r1, r2) || far(g1, g2) || far(b1, b2) {
				n++
			}
		}
	}
	return n
}

package report

import (
	"bytes"
	"context"
	"flag"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

var shot = flag.String("shot", "", "also copy the headless Chromium screenshot of the report page to this file, to look at")

// chromium finds Debian's chromium (or another Chromium build). The test
// that uses it is skipped when there is none, unless WRA_REQUIRE_CHROMIUM
// is set, as CI sets it.
func chromium(t *testing.T) string {
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

// runChromium runs headless Chromium offline on a local file with a
// profile of its own in dir.
func runChromium(t *testing.T, bin, dir string, args ...string) []byte {
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

// TestPageInChromium loads the sample page, which holds every table and
// plot kind and a server named <script>alert(1)</script>, in headless
// Chromium: the DOM Chromium built must hold every table and every plot
// (an <svg> with its text), the hostile label as text, and no <script>
// element. A screenshot must be a real image.
func TestPageInChromium(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "index.html")
	if err := os.WriteFile(page, renderPage(t, samplePage(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	url := "file://" + page
	dom := string(runChromium(t, bin, dir, "--dump-dom", url))

	if strings.Contains(strings.ToLower(dom), "<script") {
		t.Errorf("Chromium's DOM has a <script> element")
	}
	for _, id := range []string{"s1-t1", "s2-t1", "s3-t1"} {
		if !regexp.MustCompile(`<table id="` + id + `">`).MatchString(dom) {
			t.Errorf("DOM lacks table %s", id)
		}
	}
	for _, id := range []string{"s1-p1", "s4-p1", "s4-p2", "s4-p3", "s4-p4", "s4-p5", "s4-p6"} {
		re := regexp.MustCompile(`(?s)<figure id="` + id + `">\s*<svg [^>]*>.*?<text [^>]*>[^<]+</text>.*?</svg>`)
		if !re.MatchString(dom) {
			t.Errorf("DOM lacks plot %s as an <svg> with text", id)
		}
	}
	for _, want := range []string{
		"<td>&lt;script&gt;alert(1)&lt;/script&gt;</td>",
		"&lt;script&gt;alert(1)&lt;/script&gt;</text>",
		"<code>evil/&lt;img src=x onerror=alert(2)&gt;.txt:7</code>",
	} {
		if !strings.Contains(dom, want) {
			t.Errorf("DOM lacks the hostile label as text: %s", want)
		}
	}
	if strings.Contains(dom, "<img") {
		t.Errorf("DOM has an <img> element made from a label")
	}

	png1 := filepath.Join(dir, "page.png")
	runChromium(t, bin, dir, "--screenshot="+png1, "--window-size=1200,4000", "--hide-scrollbars", url)
	f, err := os.Open(png1)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	// The page is not blank: count pixels that are not white.
	b, dark := img.Bounds(), 0
	for y := b.Min.Y; y < b.Max.Y; y += 4 {
		for x := b.Min.X; x < b.Max.X; x += 4 {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r+g+bl < 3*0xE000 {
				dark++
			}
		}
	}
	if dark < 1000 {
		t.Errorf("screenshot is nearly blank (%d dark samples)", dark)
	}
	if *shot != "" {
		data, err := os.ReadFile(png1)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(*shot, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

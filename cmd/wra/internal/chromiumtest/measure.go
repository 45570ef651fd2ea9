package chromiumtest

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// Measure loads the local file page in headless Chromium bin, in a
// window of w × h CSS pixels, offline, and returns what script, a
// JavaScript expression evaluated by the DevTools protocol once the page
// has loaded, gives (decoded from JSON into out). The page's own policy
// forbids scripts; the protocol's evaluation is the browser's, not the
// page's (and its policy is bypassed for it alone).
func Measure(t testing.TB, bin, dir, pagePath string, w, h int, script string, out any) {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.WindowSize(w, h),
		chromedp.UserDataDir(filepath.Join(dir, "profile-measure")),
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.Flag("hide-scrollbars", true),
		chromedp.Env("DBUS_SESSION_BUS_ADDRESS=disabled:"),
	)
	// No timeout on the context that starts the browser: it would stop
	// the browser (chromedp.Run); the test's own deadline bounds it.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	actx, cancelA := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelA()
	bctx, cancelB := chromedp.NewContext(actx)
	defer cancelB()
	if _, err := os.Stat(pagePath); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(bctx, page.SetBypassCSP, page.SetBypassCSPParams{Enabled: true}); err != nil {
		t.Fatalf("chromium: %v", err)
	}
	err := chromedp.Do(bctx,
		chromedp.EmulateViewport(int64(w), int64(h)),
		chromedp.Navigate("file://"+pagePath),
		chromedp.WaitReady("body"),
	)
	if err == nil {
		var raw []byte
		if raw, err = chromedp.Run(bctx, chromedp.Evaluate[[]byte](script)); err == nil {
			err = json.Unmarshal(raw, out)
		}
	}
	if err != nil {
		t.Fatalf("chromium %s: %v", pagePath, err)
	}
}

package record

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wra-bench/wra/data/harness/internal/mariadb"
	"github.com/wra-bench/wra/data/harness/internal/pg"
)

var liveStacks = flag.Bool("stacks", false, "build and start every stack against real PostgreSQL and MariaDB (needs go, node, npm with registry access, and both databases' server binaries)")

// TestStacksAnswer starts each stack of the plan once against its database
// and checks that it answers the bytes every stack must (startServer's
// verify step), as a recording would before its first run.
func TestStacksAnswer(t *testing.T) {
	if !*liveStacks {
		t.Skip("pass -stacks to build and start every stack")
	}
	// -stacks asks for every stack: a missing program fails the test, it
	// is not skipped.
	if _, err := pg.FindBinDir(); err != nil {
		t.Fatalf("-stacks: %v", err)
	}
	if _, err := mariadb.FindBinaries(""); err != nil {
		t.Fatalf("-stacks: %v", err)
	}
	tools := Tools{}
	for _, x := range []struct {
		dst  *string
		name string
	}{{&tools.Go, "go"}, {&tools.Node, "node"}, {&tools.NPM, "npm"}, {&tools.Python, "/usr/bin/python3"}, {&tools.Nginx, "/usr/sbin/nginx"}} {
		p, err := exec.LookPath(x.name)
		if err != nil {
			t.Fatalf("-stacks: %v", err)
		}
		*x.dst = p
	}
	fpm, _ := filepath.Glob("/usr/sbin/php-fpm*")
	if len(fpm) == 0 {
		t.Fatal("-stacks: no php-fpm in /usr/sbin (Debian's php-fpm)")
	}
	tools.PHPFPM = fpm[len(fpm)-1]
	src, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	r := &Runner{Plan: Short(), Tools: tools, Src: src, Log: os.Stderr, PGPort: 55499, MariaDBPort: 53399, BasePort: 18181,
		work: t.TempDir(), live: map[*server]struct{}{}}
	if err := os.MkdirAll(filepath.Join(r.work, "logs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := r.prepareServers(ctx); err != nil {
		t.Fatal(err)
	}
	defer func() {
		for _, db := range r.dbs {
			if err := db.stop(); err != nil {
				t.Error(err)
			}
		}
	}()
	if err := r.startDatabases(ctx); err != nil {
		t.Fatal(err)
	}
	for _, name := range r.Plan.Servers {
		s, err := r.startServer(ctx, name)
		if err != nil {
			b, _ := os.ReadFile(filepath.Join(r.work, "logs", name+".log"))
			t.Errorf("%s: %v\n%s", name, err, b)
			continue
		}
		if err := r.stopServer(s); err != nil {
			t.Errorf("%s: stop: %v", name, err)
		}
		if left := leftovers(t, r.work); len(left) > 0 {
			t.Errorf("%s left processes running after its stop: %v", name, left)
		}
	}
}

// leftovers are the processes whose command line names the folder: a
// stack must leave none behind when it stops.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(b), dir) {
			out = append(out, filepath.Base(filepath.Dir(p))+": "+strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
	return out
}

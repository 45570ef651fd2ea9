package record

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Machine describes where a corpus was recorded.
type Machine struct {
	CPUs     int    // usable by this process (nproc)
	CPUModel string // /proc/cpuinfo "model name"
	MemGiB   float64
	Kernel   string
	OS       string
}

func readMachine() (Machine, error) {
	m := Machine{CPUs: runtime.NumCPU()}
	var err error
	if m.CPUModel, err = firstField("/proc/cpuinfo", "model name", ":"); err != nil {
		return m, err
	}
	mem, err := firstField("/proc/meminfo", "MemTotal", ":")
	if err != nil {
		return m, err
	}
	kib, err := strconv.ParseUint(strings.TrimSuffix(mem, " kB"), 10, 64)
	if err != nil {
		return m, fmt.Errorf("/proc/meminfo MemTotal %q: %w", mem, err)
	}
	m.MemGiB = float64(kib) / (1 << 20)
	b, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		return m, err
	}
	m.Kernel = strings.TrimSpace(string(b))
	if osr, err := firstField("/etc/os-release", "PRETTY_NAME", "="); err == nil {
		m.OS = strings.Trim(osr, `"`)
	}
	return m, nil
}

// firstField returns the value of the first "key<sep>value" line of a file.
func firstField(path, key, sep string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), sep)
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v), nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", fmt.Errorf("%s: no %s line", path, key)
}

// Version is one program's version as it reports it.
type Version struct{ Name, Text string }

// versions asks every tool for its version; a tool that cannot tell is
// reported as such rather than failing the recording.
func (r *Runner) versions(ctx context.Context) []Version {
	ask := func(name string, args ...string) string {
		out := filepath.Join(r.work, "version.txt")
		res, err := run(ctx, command{Name: name, Args: args, Stdout: out, Timeout: 30 * time.Second, OK: []int{1}}, r.Log)
		b, _ := os.ReadFile(out)
		s := strings.TrimSpace(string(b))
		if s == "" {
			s = strings.TrimSpace(string(res.Stderr))
		}
		if err != nil || s == "" {
			return "unknown (" + strings.Join(append([]string{filepath.Base(name)}, args...), " ") + " did not say)"
		}
		line, _, _ := strings.Cut(s, "\n")
		return line
	}
	// goMod reports a Go binary's main module version and the versions of deps.
	goMod := func(bin string, deps ...string) string {
		out := filepath.Join(r.work, "version.txt")
		if _, err := run(ctx, command{Name: r.Tools.Go, Args: []string{"version", "-m", bin}, Stdout: out, Timeout: 30 * time.Second}, r.Log); err != nil {
			return "unknown"
		}
		b, _ := os.ReadFile(out)
		var parts []string
		for _, line := range strings.Split(string(b), "\n") {
			f := strings.Fields(line)
			if len(f) >= 3 && (f[0] == "mod" && len(deps) == 0 || f[0] == "dep" && contains(deps, f[1])) {
				parts = append(parts, f[1]+" "+f[2])
			}
			if len(f) >= 2 && strings.HasSuffix(f[0], ":") && len(deps) == 0 {
				parts = append(parts, "built with "+f[1])
			}
		}
		if len(parts) == 0 {
			return "unknown"
		}
		return strings.Join(parts, ", ")
	}
	wrk2 := ask(r.Tools.WRK2, "-v")
	if r.Tools.WRK2Source != "" {
		wrk2 = "built from " + r.Tools.WRK2Source + "; reports itself as " + wrk2
	}
	vs := []Version{
		{"wrk2", wrk2},
		{"ab", ask(r.Tools.AB, "-V")},
		{"bombardier", goMod(r.Tools.Bombardier)},
		{"k6", ask(r.Tools.K6, "version")},
	}
	for _, name := range r.Plan.Databases() {
		if db := r.dbs[name]; db != nil {
			vs = append(vs, Version{db.Name, db.Version})
		}
	}
	vs = append(vs, Version{"Go (servers)", ask(r.Tools.Go, "version")})
	runtimes := map[string]bool{}
	for _, name := range r.Plan.Servers {
		st, _ := StackOf(name)
		if st.Runtime == PHP {
			vs = append(vs, Version{"nginx", ask(r.Tools.Nginx, "-v")}, Version{name, ask(r.Tools.PHPFPM, "-v")})
			continue
		}
		if st.Runtime == Python {
			if !runtimes[Python] {
				vs = append(vs, Version{"Python", ask(r.Tools.Python, "--version")})
				runtimes[Python] = true
			}
			vs = append(vs, Version{name, ask(r.Tools.Python, "-c",
				"import "+st.Module+", uvicorn; print('"+st.Module+"', "+st.Module+".__version__ + ', uvicorn', uvicorn.__version__)")})
			continue
		}
		if st.Runtime == Node {
			if !runtimes[Node] {
				vs = append(vs, Version{"Node.js", ask(r.Tools.Node, "--version")})
				runtimes[Node] = true
			}
			lock := filepath.Join(r.Src, "servers", st.Build, "package-lock.json")
			vs = append(vs, Version{name, st.Module + " " + npmLockVersion(lock, "node_modules/"+st.Module)})
			continue
		}
		vs = append(vs, Version{name, goMod(filepath.Join(r.work, "bin", st.Build), st.Module)})
	}
	vs = append(vs, Version{"sha256sum", ask(r.Tools.Sha256sum, "--version")})
	return vs
}

// npmLockVersion reads a package's locked version from package-lock.json.
func npmLockVersion(path, pkg string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "unknown"
	}
	var lock struct {
		Packages map[string]struct {
			Version string `json:"version"`
		} `json:"packages"`
	}
	if err := json.Unmarshal(b, &lock); err != nil || lock.Packages[pkg].Version == "" {
		return "unknown"
	}
	return lock.Packages[pkg].Version
}

package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// manifestEntry maps the files matching a pattern (with {label} captures)
// or a glob to labels.
type manifestEntry struct {
	Comment string
	Pattern string
	Glob    string
	Labels  map[string]string
	// Overlay entries add a label to files another entry already maps
	// (the database of each server's files); wra merges every entry that
	// matches, so they are not counted by checkEntries.
	Overlay bool
}

// manifest returns wra.toml's entries for the plan: every file the harness
// writes matches exactly one entry that is not an overlay. Each run's
// trial is the t<N> folder of its path (trial=N) and its round is the
// trial's number too (an overlay per trial), as the records CSV's rows
// have it, so that wra pairs each records row with its wrk2 report.
func (r *Runner) manifest() (global map[string]string, entries []manifestEntry) {
	pl := r.Plan
	global = map[string]string{}
	if dbs := pl.Databases(); len(dbs) == 1 {
		global["database"] = dbs[0]
	}
	secs := func(d time.Duration) string { return strconv.Itoa(int(d / time.Second)) }
	ladder := map[string]string{"tool": "k6", "stages": pl.Ladder.Stages(), "p95_threshold_ms": strconv.Itoa(pl.Ladder.P95MS)}
	entries = []manifestEntry{
		{
			Comment: "Fixed-rate cells: one wrk2 report per run (-U: corrected and uncorrected spectra). wrk2 does not print the requested rate: it is target_rps here.",
			Pattern: "wrk2/t{trial}/{server}/{test}-r{target_rps}-c{connections}.txt",
			Labels:  map[string]string{"tool": "wrk2", "threads": strconv.Itoa(pl.Fixed.Threads), "duration_s": secs(pl.Fixed.Duration)},
		},
		{
			Comment: "The harness's row per fixed-rate run: CPU seconds of the server and of its database (user and kernel, from /proc over each process tree) and memory, beside the wrk2 figures; utc is the run's start, trial its trial, report the wrk2 file of the row.",
			Glob:    "records/*.csv",
		},
		{
			Comment: "Tools cells: an endpoint with one tool.",
			Pattern: "tools/t{trial}/ab/{server}/{test}-c{connections}.txt",
			Labels:  map[string]string{"tool": "ab", "duration_s": secs(pl.Tools.Duration)},
		},
		{
			Pattern: "tools/t{trial}/bombardier/{server}/{test}-c{connections}.txt",
			Labels:  map[string]string{"tool": "bombardier", "duration_s": secs(pl.Tools.Duration)},
		},
		{
			Comment: "k6 constant-arrival-rate runs: the end-of-test text summary as k6 printed it (progress lines included).",
			Pattern: "tools/t{trial}/k6/{server}/{test}-r{target_rps}.txt",
			Labels:  map[string]string{"tool": "k6", "duration_s": secs(pl.Tools.Duration)},
		},
		{
			Comment: fmt.Sprintf("Waiting cells: ab reports of /wait?ms=%d, a fresh server per point; the peak memory per point is in memory/.", pl.Waiting.WaitMS),
			Pattern: "waiting/t{trial}/{server}/c{connections}.txt",
			Labels:  map[string]string{"tool": "ab", "test": "waiting", "wait_ms": strconv.Itoa(pl.Waiting.WaitMS)},
		},
		{
			Comment: "Memory series: peak resident set of the server per concurrency and trial (pass).",
			Glob:    "memory/*.csv",
		},
		{
			Comment: "Ladders: k6 ramping-arrival-rate, requests tagged step=<rate>; stages are target_rps:duration pairs (a ramp, then the hold, per step).",
			Pattern: "ladder/t{trial}/{server}/{test}.ndjson.gz",
			Labels:  ladder,
		},
		{
			Pattern: "ladder/t{trial}/{server}/{test}.summary.json",
			Labels:  ladder,
		},
		{
			Comment: fmt.Sprintf("Calibration: sha256sum of a fixed buffer by %s parallel processes, before and after each trial (trial-<N>-before.csv, trial-<N>-after.csv: every run of the trial lies between them).", strings.ReplaceAll(joinInts(pl.Calibration.Processes), ",", " or ")),
			Pattern: "calibration/trial-{trial}-{phase}.csv",
		},
		{
			Comment: "The machine's noise: two calibrations back to back with nothing between, before the first trial.",
			Pattern: "calibration/" + noisePair + "-{phase}.csv",
		},
	}
	for trial := 1; trial <= pl.Trials; trial++ {
		e := manifestEntry{Glob: fmt.Sprintf("*/t%d/**", trial), Overlay: true,
			Labels: map[string]string{"round": strconv.Itoa(trial), "calibration": fmt.Sprintf("trial-%d", trial)}}
		if trial == 1 {
			e.Comment = "The round of each run is its trial's number (a trial is one pass over every cell); calibration names the trial's pair, which covers the reports that print no start time."
		}
		entries = append(entries, e)
	}
	if _, one := global["database"]; !one {
		entries = append(entries, databaseOverlays(pl)...)
	}
	return global, entries
}

// serverFolders are the globs of a server's files, one per series layout.
var serverFolders = []string{"wrk2/*/%s/*", "tools/*/*/%s/*", "waiting/*/%s/*", "ladder/*/%s/*"}

// databaseOverlays label each server's files with its database, for a
// plan whose servers use more than one (records CSV rows carry their own
// database column; the memory series is keyed by server).
func databaseOverlays(pl Plan) []manifestEntry {
	var out []manifestEntry
	for _, name := range pl.Servers {
		st, _ := StackOf(name)
		for i, f := range serverFolders {
			e := manifestEntry{Glob: fmt.Sprintf(f, name), Labels: map[string]string{"database": st.Database}, Overlay: true}
			if i == 0 {
				e.Comment = fmt.Sprintf("%s runs on %s.", name, st.Database)
			}
			out = append(out, e)
		}
	}
	return out
}

// manifestIgnore are the paths of the corpus folder that are not records.
// (trials.csv is the harness's schedule: every run's trial, position and
// start).
var manifestIgnore = []string{"harness/**", "README.md", scheduleName}

// manifestBlocks are the labels that tell the blocks of the design apart:
// the trials, within which wra compares the alternatives.
var manifestBlocks = []string{"trial"}

func quoteAll(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = tomlString(x)
	}
	return out
}

// tomlString quotes s as a TOML basic string: JSON's escapes (\" \\ \n \t
// \uXXXX) are all valid TOML escapes.
func tomlString(s string) string {
	b, _ := json.Marshal(s) // a string always marshals
	return string(b)
}

func inlineTable(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b bytes.Buffer
	b.WriteString("{ ")
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s = %s", k, tomlString(m[k]))
	}
	b.WriteString(" }")
	return b.String()
}

// renderManifest writes wra.toml's text.
func renderManifest(pl Plan, seed uint64, global map[string]string, entries []manifestEntry) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Labels of every file in this folder, for wra. Written by the harness (plan %q);\n", pl.Name)
	b.WriteString("# {name} captures one part of a path segment and becomes the label name.\n")
	fmt.Fprintf(&b, "# Recorded in %d trials: each ran every one of the plan's %d cells once, in an\n", pl.Trials, len(pl.Cells()))
	fmt.Fprintf(&b, "# order drawn for it from seed %d (go run ./cmd/record -dry-run %s -seed %d prints\n", seed, pl.Flags(), seed)
	fmt.Fprintf(&b, "# them again); %s lists every run with its trial, position and start.\n\n", scheduleName)
	b.WriteString("# Not records: the harness that wrote this folder, and the README.\n")
	fmt.Fprintf(&b, "ignore = [%s]\n\n", strings.Join(quoteAll(manifestIgnore), ", "))
	b.WriteString("# A trial is a block of the design, not a factor: runs of different trials\n")
	b.WriteString("# are the same experiment, pooled as rounds are, and compared within a trial.\n")
	fmt.Fprintf(&b, "blocks = [%s]\n\n", strings.Join(quoteAll(manifestBlocks), ", "))
	b.WriteString("[labels]\n")
	keys := make([]string, 0, len(global))
	for k := range global {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "%s = %s\n", k, tomlString(global[k]))
	}
	for _, e := range entries {
		b.WriteString("\n")
		if e.Comment != "" {
			fmt.Fprintf(&b, "# %s\n", e.Comment)
		}
		b.WriteString("[[files]]\n")
		if e.Pattern != "" {
			fmt.Fprintf(&b, "pattern = %s\n", tomlString(e.Pattern))
		}
		if e.Glob != "" {
			fmt.Fprintf(&b, "glob = %s\n", tomlString(e.Glob))
		}
		if len(e.Labels) > 0 {
			fmt.Fprintf(&b, "labels = %s\n", inlineTable(e.Labels))
		}
	}
	return b.Bytes()
}

func (r *Runner) writeManifest() error {
	p, err := r.path("wra.toml")
	if err != nil {
		return err
	}
	global, entries := r.manifest()
	return os.WriteFile(p, renderManifest(r.Plan, r.Seed, global, entries), 0o644)
}

// patternRegexp turns a manifest pattern into an anchored regexp whose
// named groups are the labels; a capture never spans a '/'.
func patternRegexp(pattern string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString("^")
	rest := pattern
	for rest != "" {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			b.WriteString(regexp.QuoteMeta(rest))
			break
		}
		end := strings.IndexByte(rest[open:], '}')
		if end < 0 {
			return nil, fmt.Errorf("pattern %q: unclosed {", pattern)
		}
		name := rest[open+1 : open+end]
		if !regexp.MustCompile(`^[a-z_][a-z0-9_]*$`).MatchString(name) {
			return nil, fmt.Errorf("pattern %q: bad label name %q", pattern, name)
		}
		b.WriteString(regexp.QuoteMeta(rest[:open]))
		b.WriteString("(?P<" + name + ">[^/]+)")
		rest = rest[open+end+1:]
	}
	b.WriteString("$")
	return regexp.Compile(b.String())
}

// globRegexp turns a manifest glob into an anchored regexp as wra reads
// it: ** matches across segments, * and ? within one.
func globRegexp(glob string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(glob); i++ {
		switch {
		case strings.HasPrefix(glob[i:], "**"):
			b.WriteString(".*")
			i++
		case glob[i] == '*':
			b.WriteString("[^/]*")
		case glob[i] == '?':
			b.WriteString("[^/]")
		default:
			b.WriteString(regexp.QuoteMeta(glob[i : i+1]))
		}
	}
	b.WriteString("$")
	return regexp.Compile(b.String())
}

// matches reports whether rel (slash-separated, relative to the corpus root)
// is one of the entry's files.
func (e manifestEntry) matches(rel string) (bool, error) {
	re, err := patternRegexp(e.Pattern)
	if e.Glob != "" {
		re, err = globRegexp(e.Glob)
	}
	if err != nil {
		return false, err
	}
	return re.MatchString(rel), nil
}

// corpusFiles lists the staged files under a top-level folder (or that
// file), slash-separated and relative to the corpus root, sorted.
func (r *Runner) corpusFiles(top string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(filepath.Join(r.stage, top), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			files = append(files, r.rel(p))
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}

// checkCorpus fails unless the staged data files are exactly the planned
// ones and each matches exactly one manifest entry, so that wra loads all
// of them with labels.
func (r *Runner) checkCorpus() error {
	var staged []string
	for _, top := range outputs {
		if top == "README.md" || top == "wra.toml" || top == scheduleName {
			continue
		}
		if _, err := os.Stat(filepath.Join(r.stage, top)); err != nil {
			continue
		}
		files, err := r.corpusFiles(top)
		if err != nil {
			return err
		}
		staged = append(staged, files...)
	}
	sort.Strings(staged)
	planned := PlannedFiles(r.Plan)
	if strings.Join(staged, "\n") != strings.Join(planned, "\n") {
		return fmt.Errorf("recorded files differ from the plan: %d recorded, %d planned", len(staged), len(planned))
	}
	if n := r.Plan.Trials * len(r.Plan.Cells()); len(r.schedule) != n {
		return fmt.Errorf("%d runs noted in %s, want %d (%d trials of %d cells)", len(r.schedule), scheduleName, n, r.Plan.Trials, len(r.Plan.Cells()))
	}
	_, entries := r.manifest()
	return checkEntries(entries, staged)
}

// checkEntries fails unless each file matches exactly one entry.
func checkEntries(entries []manifestEntry, files []string) error {
	var errs []error
	for _, f := range files {
		n := 0
		for _, e := range entries {
			if e.Overlay {
				continue
			}
			ok, err := e.matches(f)
			if err != nil {
				return err
			}
			if ok {
				n++
			}
		}
		if n != 1 {
			errs = append(errs, fmt.Errorf("%s matches %d wra.toml entries, want 1", f, n))
		}
	}
	return errors.Join(errs...)
}

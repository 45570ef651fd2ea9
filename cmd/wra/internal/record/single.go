package record

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Single is one run of wra record without a plan.
type Single struct {
	Server   ServerSpec
	Database *Target
	Labels   map[string]string
	Load     Load
	// Report names the tool's output in the folder; "" makes a name of
	// the server, the tool, the test, the rate and a number.
	Report string
}

// RecordsFile is the records CSV of a folder of single runs.
const RecordsFile = "records.csv"

// RecordOne makes one run into the folder.
func (r *Recorder) RecordOne(ctx context.Context, s Single) (Outcome, error) {
	labels := map[string]string{}
	for k, v := range s.Labels {
		labels[k] = v
	}
	labels["server"] = s.Server.Target.Name
	if s.Database != nil {
		labels["database"] = s.Database.Name
	}
	if _, ok := labels["target_rps"]; !ok {
		if rate, ok := RateOf(s.Load.Args); ok {
			labels["target_rps"] = rate
		}
	}
	for _, k := range []string{"server", "database", "test"} {
		if v := labels[k]; v != "" && !validName(v) {
			return Outcome{}, fmt.Errorf("label %s=%q: it names files, so it may hold letters, digits, '.', '_' and '-' only", k, v)
		}
	}
	report := s.Report
	if report == "" {
		report = r.freeName(defaultReportBase(s.Load.Args, labels))
	} else if !safeRel(report) {
		return Outcome{}, fmt.Errorf("--report %q: expected a relative path of letters, digits, '.', '_', '-' and '/'", report)
	}
	stage, err := r.Folder.Stage()
	if err != nil {
		return Outcome{}, err
	}
	return r.Run(ctx, Cell{
		Server: s.Server, Database: s.Database, Load: s.Load, URL: FirstURL(s.Load.Args),
		Report: report, Labels: labels, Records: RecordsFile, Stage: stage,
	})
}

// defaultReportBase is server/tool[-test][-rRATE][-cCONNS].
func defaultReportBase(args []string, labels map[string]string) string {
	name := sanitize(filepath.Base(args[0]))
	for _, p := range []struct{ prefix, label string }{{"", "test"}, {"r", "target_rps"}, {"c", "connections"}} {
		if v := labels[p.label]; v != "" {
			name += "-" + p.prefix + sanitize(v)
		}
	}
	return labels["server"] + "/" + name
}

// freeName is base-N.txt for the lowest N >= 1 that is not in the folder.
func (r *Recorder) freeName(base string) string {
	for n := 1; ; n++ {
		rel := base + "-" + strconv.Itoa(n) + ".txt"
		if !r.Folder.Exists(rel) {
			return rel
		}
	}
}

// sanitize keeps the characters file names of the folder may have.
func sanitize(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return strings.Trim(b.String(), ".")
}

// RateOf is the fixed request rate a load command asks for, where its
// tool takes one by a flag wra knows: wrk2's -R/--rate, bombardier's
// -r/--rate, oha's -q and vegeta's -rate (per second).
func RateOf(args []string) (string, bool) {
	if len(args) == 0 {
		return "", false
	}
	flags := map[string][]string{
		"wrk2": {"-R", "--rate"}, "wrk": {"-R", "--rate"},
		"bombardier": {"-r", "--rate"}, "oha": {"-q"}, "vegeta": {"-rate", "--rate"},
	}[path.Base(args[0])]
	for i, a := range args[1:] {
		for _, f := range flags {
			var v string
			switch {
			case a == f && i+2 < len(args):
				v = args[i+2]
			case strings.HasPrefix(a, f+"="):
				v = a[len(f)+1:]
			case len(f) == 2 && strings.HasPrefix(a, f) && len(a) > 2:
				v = a[2:]
			default:
				continue
			}
			v = strings.TrimSuffix(v, "/s")
			if x, err := strconv.ParseFloat(v, 64); err == nil && x > 0 {
				return ftoa(x), true
			}
		}
	}
	return "", false
}

// FirstURL is the first http:// or https:// argument of a command.
func FirstURL(args []string) string {
	for _, a := range args {
		for _, scheme := range []string{"http://", "https://"} {
			if i := strings.Index(a, scheme); i >= 0 {
				return a[i:]
			}
		}
	}
	return ""
}

// CommandOutput runs a program and returns its standard output, for
// Host.Output (systemctl, docker, podman), under a 30 s limit.
func CommandOutput(ctx context.Context, name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if s := strings.TrimSpace(stderr.String()); s != "" {
			return out, fmt.Errorf("%w: %s", err, clip(s))
		}
	}
	return out, err
}

// Summary writes what a run measured, for people, on w.
func Summary(w io.Writer, rel string, o Outcome) {
	rel = filepath.ToSlash(rel)
	m := o.Measured
	fmt.Fprintf(w, "wra: recorded %s (round %d, %s)\n", rel, o.Round, m.Wall().Round(time.Millisecond))
	for _, n := range o.Notes {
		fmt.Fprintf(w, "wra: note: %s\n", n)
	}
	ok := int64(0)
	if o.Report != nil {
		r := o.Report.Run
		switch {
		case r.Responses2xx.Valid:
			ok = r.Responses2xx.V
		case r.Requests.Valid:
			ok = r.Requests.V - r.Non2xx.V - r.Errors.V
		}
		fmt.Fprintf(w, "wra:   report: %s, %d requests, %d answered 2xx\n", o.Report.Format, r.Requests.V, ok)
	}
	line := func(who string, f Figures) {
		total := f.CPU.TotalNS
		per := ""
		if ok > 0 {
			per = fmt.Sprintf(", %.4g µs per 2xx response", float64(total)/1e3/float64(ok))
		}
		fmt.Fprintf(w, "wra:   %s CPU %.4g s (user %.4g s, system %.4g s; %s)%s\n", who, float64(total)/1e9, float64(f.CPU.UserNS)/1e9, float64(f.CPU.SystemNS)/1e9, f.CPUSource, per)
		if f.Memory.WorkingSet.Valid {
			fmt.Fprintf(w, "wra:   %s working set %.1f MiB (%s)\n", who, float64(f.Memory.WorkingSet.V)/(1<<20), f.MemorySource)
		}
	}
	line("server", m.Server)
	if m.Database != nil {
		line("database", *m.Database)
	}
	gen := m.Generator.TotalNS
	cores := 0.0
	if m.Wall() > 0 {
		cores = float64(gen) / float64(m.Wall().Nanoseconds())
	}
	fmt.Fprintf(w, "wra:   load generator CPU %.4g s (%.2f of a core)\n", float64(gen)/1e9, cores)
}

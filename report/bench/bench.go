// Package bench lays the groups of the experiment's design out in the
// formats benchmark dashboards and tools read (wra export --bmf,
// --github-smaller, --github-bigger, --gobench): Bencher's Metric Format,
// github-action-benchmark's custom JSON, and Go's benchmark text format
// that benchstat and the golang.org/x/perf tools read. Every format
// names a group the same way (Name) and writes the figures model gives
// (BenchGroup.Measures, BenchRun.Measures); this package formats them
// and computes nothing.
package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

// A part is one key=value element of a group's name.
type part struct{ key, value string }

// configKeys are the factors of a group that Go's benchmark format
// writes as configuration lines, not in the benchmark's name: what a
// table of benchstat holds fixed (a table per tool, database and mode).
var configKeys = []string{"tool", "database", "mode"}

// parts are the factors of g: the configuration ones (configKeys, those
// it has) and the name's (server, connections, target rate and the
// variant's labels by key), values as the store keeps them.
func parts(g model.BenchGroup) (config, name []part) {
	for _, p := range []part{{"tool", g.Tool}, {"database", g.Database}, {"mode", g.Mode}} {
		if p.value != "" {
			config = append(config, p)
		}
	}
	if g.Server != "" {
		name = append(name, part{"server", g.Server})
	}
	if g.Connections >= 0 {
		name = append(name, part{"connections", strconv.FormatInt(g.Connections, 10)})
	}
	if !math.IsNaN(g.TargetRPS) {
		name = append(name, part{"target_rps", strconv.FormatFloat(g.TargetRPS, 'g', -1, 64)})
	}
	keys := make([]string, 0, len(g.Factors))
	for k := range g.Factors {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		name = append(name, part{k, g.Factors[k]})
	}
	return config, name
}

// escape writes s with the bytes a benchmark name cannot hold as %XX:
// '%', '/', space and control characters and every byte outside ASCII.
func escape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || c == '%' || c == '/' {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// procsSuffix is what Go's benchmark format reads as a GOMAXPROCS suffix.
var procsSuffix = regexp.MustCompile(`-([0-9]+)$`)

// join is a name of parts: base, then key=value per part, each escaped,
// '/'-separated; a name that would end in -N (which Go's format reads
// as GOMAXPROCS) has that '-' escaped as %2D.
func join(base string, ps []part) string {
	elems := []string{escape(base)}
	for _, p := range ps {
		elems = append(elems, escape(p.key)+"="+escape(p.value))
	}
	return procsSuffix.ReplaceAllString(strings.Join(elems, "/"), "%2D$1")
}

// base is a group's test, "Run" where its runs name none.
func base(g model.BenchGroup) string {
	if g.Test == "" {
		return "Run"
	}
	return g.Test
}

// Name is the name of g in every format: its test, then its factors as
// key=value: tool, database and mode, then server, connections, target
// rate and the variant's labels ("db/tool=wrk2/database=postgres/
// mode=fixed-rate/server=go-pgx/connections=64/target_rps=1000").
func Name(g model.BenchGroup) string {
	config, name := parts(g)
	return join(base(g), append(config, name...))
}

// num is v as the shortest text that reads back as v.
func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// oneLine is s on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Caveats are the caveats of the groups, one line each, as "name: text",
// for a format that has no place for them beside the figures.
func Caveats(groups []model.BenchGroup) []string {
	var out []string
	for _, g := range groups {
		for _, c := range g.Caveats {
			out = append(out, Name(g)+": "+oneLine(c.Text))
		}
	}
	return out
}

// bmfMetric is one measure of Bencher's Metric Format.
type bmfMetric struct {
	Value float64  `json:"value"`
	Lower *float64 `json:"lower_value,omitempty"`
	Upper *float64 `json:"upper_value,omitempty"`
}

func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// BMF writes the groups in Bencher's Metric Format: an object of
// benchmark name (Name) to an object of measure name
// (BenchGroup.Measures' names) to {value, lower_value, upper_value}, the
// bounds the min and max over the group's runs where the store has them.
// Keys are sorted; a group without a figure is left out.
func BMF(w io.Writer, groups []model.BenchGroup) error {
	out := map[string]map[string]bmfMetric{}
	for _, g := range groups {
		ms := g.Measures()
		if len(ms) == 0 {
			continue
		}
		m := map[string]bmfMetric{}
		for _, x := range ms {
			m[x.Name] = bmfMetric{Value: x.Value, Lower: finite(x.Lower), Upper: finite(x.Upper)}
		}
		out[Name(g)] = m
	}
	return writeJSON(w, out)
}

func writeJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// GitHubEntry is one entry of github-action-benchmark's custom JSON.
type GitHubEntry struct {
	Name  string  `json:"name"`
	Unit  string  `json:"unit"`
	Value float64 `json:"value"`
	Range string  `json:"range,omitempty"`
	Extra string  `json:"extra,omitempty"`
}

// GitHub writes the measures of the groups whose direction is bigger
// (true: higher is better, for the action's tool customBiggerIsBetter)
// or smaller (false: customSmallerIsBetter) as github-action-benchmark's
// custom JSON: an array of {name, unit, value, range, extra}, name the
// group's Name and the measure's after " - ", range the min and max over
// the runs where the store has them, extra the number of runs, the
// group and its caveats, one per line. In group and measure order.
func GitHub(w io.Writer, groups []model.BenchGroup, bigger bool) error {
	out := []GitHubEntry{}
	for _, g := range groups {
		extra := []string{fmt.Sprintf("%d runs", g.Passes), "group: " + g.GroupID}
		for _, c := range g.Caveats {
			extra = append(extra, "caveat: "+oneLine(c.Text))
		}
		for _, m := range g.Measures() {
			if m.HigherIsBetter != bigger {
				continue
			}
			e := GitHubEntry{Name: Name(g) + " - " + m.Name, Unit: m.Unit, Value: m.Value, Extra: strings.Join(extra, "\n")}
			if finite(m.Lower) != nil && finite(m.Upper) != nil {
				e.Range = "min " + num(m.Lower) + ", max " + num(m.Upper)
			}
			out = append(out, e)
		}
	}
	return writeJSON(w, out)
}

// GoBench writes the groups' runs in Go's benchmark text format, one
// result line per run so that benchstat sees the passes:
//
//	Unit rps better=higher
//	tool: wrk2
//	database: postgres
//	mode: fixed-rate
//	# caveat db/server=go-pgx/…: fewer than three runs: …
//	Benchmarkdb/server=go-pgx/connections=64/target_rps=1000 1 9871 rps 2.4 latency_p99_ms …
//
// The Unit lines first (the direction of every measure), then per group
// its configuration lines where they change (configKeys; an empty value
// clears a key the group lacks), its caveats as lines the format ignores
// ("# caveat "), and its runs: the iteration count 1, each measure the
// run has as its value and its name as the unit (BenchRun.Measures). A
// run without any figure is named in a "# no figures" line instead.
func GoBench(w io.Writer, groups []model.BenchGroup) error {
	bw := bufio.NewWriter(w)
	for _, m := range (model.BenchRun{}).AllMeasures() {
		better := "lower"
		if m.HigherIsBetter {
			better = "higher"
		}
		fmt.Fprintf(bw, "Unit %s better=%s\n", m.Name, better)
	}
	current := map[string]string{}
	for _, g := range groups {
		config, name := parts(g)
		set := map[string]string{}
		for _, p := range config {
			set[p.key] = p.value
		}
		for _, k := range configKeys {
			if v, ok := current[k]; set[k] != v || !ok {
				if set[k] == "" {
					fmt.Fprintf(bw, "%s:\n", k)
				} else {
					fmt.Fprintf(bw, "%s: %s\n", k, oneLine(set[k]))
				}
				current[k] = set[k]
			}
		}
		full := Name(g)
		for _, c := range g.Caveats {
			fmt.Fprintf(bw, "# caveat %s: %s\n", full, oneLine(c.Text))
		}
		line := "Benchmark" + join(base(g), name)
		for _, r := range g.Runs {
			ms := r.Measures()
			if len(ms) == 0 {
				fmt.Fprintf(bw, "# no figures: run %s (%s:%d) of %s\n", r.RunID, r.Source, r.Line, full)
				continue
			}
			bw.WriteString(line + " 1")
			for _, m := range ms {
				bw.WriteString(" " + num(m.Value) + " " + m.Name)
			}
			bw.WriteByte('\n')
		}
	}
	return bw.Flush()
}

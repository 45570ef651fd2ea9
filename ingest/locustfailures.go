package ingest

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

// Locust writes, with --csv=prefix (0.14 on), the table of its Failures
// tab to prefix_failures.csv beside prefix_stats.csv: a row per request
// type, name and error with the number of times it occurred. The columns:
//
//	0.14-1.0  "Method","Name","Error","Occurrences" (every field quoted by
//	          hand, an error's own quotes left as they are)
//	1.1 on    Method,Name,Error,Occurrences (Python's csv module)
//	2.44 on   …,Occurrences,First Seen,Last Seen
//
// A build of Locust's master between April and June 2019 spelled the
// column "Occurences". Each failure is counted in the Failure Count of
// its row of the statistics, so the table has no request count: it is
// read with the statistics beside it, as the error breakdown of their
// runs, and makes no run of its own.

func init() {
	register(&Format{Name: "locust-failures-csv", Priority: 15, Detect: detectLocustFailures, Read: readLocustFailures,
		Feeds: func(p string) string { return locustSibling(p, locustFailuresSuffix, locustStatsSuffix) }})
}

const (
	locustFailuresSuffix = "_failures.csv"
	locustStatsSuffix    = "_stats.csv"
)

var locustFailureAliases = map[string]string{"method": "type", "occurences": "occurrences"}

// detectLocustFailures claims a header with Locust's failures columns.
func detectLocustFailures(head []byte) bool {
	h := headerFields(head, locustFailureAliases)
	return h["type"] && h["name"] && h["error"] && h["occurrences"] && !h["requests"]
}

// locustSibling returns the path of the file that Locust writes beside
// the one at p with the same --csv prefix: from and to are the suffixes
// of the two ("_failures.csv", "_stats.csv"); "" when p's name does not
// end in from after a prefix.
func locustSibling(p, from, to string) string {
	dir, base := filepath.Split(p)
	prefix, ok := strings.CutSuffix(base, from)
	if !ok || prefix == "" {
		return ""
	}
	return filepath.Join(dir, prefix+to)
}

// locustFailure is a row of the failures table.
type locustFailure struct {
	line      int
	typ, name string
	err       string
	n         int64
}

// readLocustFailureRows reads a failures table, which may have no row (a
// test without failures).
func readLocustFailureRows(in *Input) ([]locustFailure, error) {
	t, err := newCSVTable(in, locustFailureAliases)
	if err != nil {
		return nil, err
	}
	for _, c := range []string{"type", "name", "error", "occurrences"} {
		if !t.has(c) {
			return nil, Errorf(in.Name, 1, 0, "Locust failures CSV: the header has no %s column", c)
		}
	}
	var out []locustFailure
	for {
		ok, err := t.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return out, nil
		}
		name, ok := t.str("name")
		if !ok {
			return nil, t.errAt("name", "empty request name")
		}
		n, ok, err := locustCount(t, "occurrences")
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, t.errAt("occurrences", "empty: expected the number of occurrences")
		}
		typ, _ := t.str("type")
		e, _ := t.str("error")
		out = append(out, locustFailure{line: t.line, typ: typ, name: name, err: e, n: n})
	}
}

// readLocustFailures reads a failures table on its own. It stores
// nothing: the statistics beside it, prefix_stats.csv, read it as their
// error breakdown (addLocustFailures), and are read again when it
// changes (Format.Feeds). Without them it is skipped, saying what it
// needs.
func readLocustFailures(in *Input, sink model.Sink) error {
	fails, err := readLocustFailureRows(in)
	if err != nil {
		return err
	}
	const what = "Locust's failures table counts failures per request name, not requests, so it makes no run of its own"
	stats := locustSibling(in.Path, locustFailuresSuffix, locustStatsSuffix)
	if stats == "" {
		return &SkipError{File: in.Name, Reason: what + "; wra reads it with the statistics Locust writes beside it, as prefix" + locustFailuresSuffix + " beside prefix" + locustStatsSuffix + ", and this file's name does not end in " + locustFailuresSuffix}
	}
	statsName := path.Base(filepath.ToSlash(stats))
	if !isLocustStatsFile(stats) {
		return &SkipError{File: in.Name, Reason: what + "; wra reads it with the Locust statistics table " + statsName + " beside it, which is not there"}
	}
	var n int64
	for _, f := range fails {
		n += f.n
	}
	in.note = fmt.Sprintf("%d failures in %d rows, stored as the errors_breakdown of the runs of %s beside it", n, len(fails), statsName)
	return nil
}

// isLocustStatsFile reports whether the file at p is a Locust statistics
// table, by its content.
func isLocustStatsFile(p string) bool {
	if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
		return false
	}
	o, err := open(p, filepath.Base(p))
	if err != nil {
		return false
	}
	defer o.close()
	return detectLocustStats(o.head)
}

// addLocustFailures reads the prefix_failures.csv beside a
// prefix_stats.csv, where there is one, into the runs of the statistics:
// each run's failures by error text as label errors_breakdown (a JSON
// object, as bombardier's and hey's), the Aggregated run's over all
// names, and errors_breakdown_source naming the file (its name: it is in
// the same folder). The counts of a
// name are checked against its Failure Count; a difference, or a
// failure of a name the statistics do not have, is a warning of the
// file naming the lines. A failures file that cannot be read is a
// warning too: the statistics load without a breakdown.
func addLocustFailures(in *Input, runs []*model.Run) {
	p := locustSibling(in.Path, locustStatsSuffix, locustFailuresSuffix)
	if p == "" {
		return
	}
	if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
		return
	}
	name := path.Join(path.Dir(in.Name), filepath.Base(p))
	o, err := open(p, name)
	if err != nil {
		in.warn("no error breakdown from %s beside it: %v", name, err)
		return
	}
	defer o.close()
	if !detectLocustFailures(o.head) {
		in.warn("%s beside it is not Locust's failures table (Method, Name, Error, Occurrences): no error breakdown", name)
		return
	}
	fails, err := readLocustFailureRows(&o.Input)
	if err != nil {
		in.warn("no error breakdown from %s beside it: %v", name, err)
		return
	}
	type key struct{ typ, name string }
	byKey := map[key]map[string]int64{}
	lines := map[key][]int{}
	all := map[string]int64{}
	var allLines []int
	for _, f := range fails {
		k := key{f.typ, f.name}
		if byKey[k] == nil {
			byKey[k] = map[string]int64{}
		}
		byKey[k][f.err] += f.n
		lines[k] = append(lines[k], f.line)
		all[f.err] += f.n
		allLines = append(allLines, f.line)
	}
	var bad []string
	seen := map[key]bool{}
	for _, r := range runs {
		bd, ls := byKey[key{r.Labels["request_type"], r.Labels["request_name"]}], lines[key{r.Labels["request_type"], r.Labels["request_name"]}]
		seen[key{r.Labels["request_type"], r.Labels["request_name"]}] = true
		if r.Labels["aggregated"] == "true" {
			bd, ls = all, allLines
		}
		var sum int64
		for _, n := range bd {
			sum += n
		}
		if len(bd) > 0 {
			runLabel(r, "errors_breakdown", countsJSON(bd))
			runLabel(r, "errors_breakdown_source", filepath.Base(p))
		}
		if r.Errors.Valid && sum != r.Errors.V {
			where := "no row"
			if len(ls) > 0 {
				where = "lines " + lineList(ls)
			}
			bad = append(bad, fmt.Sprintf("line %d (%s): Failure Count %d here, %d there (%s)", r.Line, locustRunName(r), r.Errors.V, sum, where))
		}
	}
	for _, f := range fails {
		if k := (key{f.typ, f.name}); !seen[k] {
			seen[k] = true
			bad = append(bad, fmt.Sprintf("its lines %s (%s): no row here", lineList(lines[k]), strings.TrimSpace(f.typ+" "+f.name)))
		}
	}
	if len(bad) > 0 {
		in.warn("%s beside it does not count the failures this table does (its breakdown stored as it is): %s", name, strings.Join(bad, "; "))
	}
}

// locustRunName is a run's request type and name as the table prints them.
func locustRunName(r *model.Run) string {
	return strings.TrimSpace(r.Labels["request_type"] + " " + r.Labels["request_name"])
}

// lineList writes line numbers, ascending, comma-separated.
func lineList(ls []int) string {
	ls = slices.Clone(ls)
	slices.Sort(ls)
	s := make([]string, len(ls))
	for i, l := range ls {
		s[i] = strconv.Itoa(l)
	}
	return strings.Join(s, ", ")
}

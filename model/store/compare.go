package store

import (
	"context"
	"fmt"
	"math"
	"path"
	"slices"
	"strings"

	"github.com/wra-bench/wra/model"
)

// The runs of a comparison (wra compare, wra gate): the sides and the
// labels that match their runs are model.CompareSides'.

// CompareSides selects the two sides (model.CompareSides).
type CompareSides = model.CompareSides

// compareExprs are the expressions of the metrics a comparison reads, by
// name: one for each of model.CompareMetrics.
var compareExprs = map[string]string{
	"rps":                   "r.rps",
	"latency_p50_ms":        "r.latency_p50_ms",
	"latency_p90_ms":        "r.latency_p90_ms",
	"latency_p99_ms":        "r.latency_p99_ms",
	"cpu_server_us_per_req": "c.cpu_server_us_per_req",
	"cpu_db_us_per_req":     "c.cpu_db_us_per_req",
	"working_set_mb":        "coalesce(r.working_set_mb, rec.working_set_mb)",
}

// allCompareMetrics are the metrics CompareRuns reads for each run: the
// default ones (model.CompareMetrics) and the tool's statistics of
// run_reported (rr).
func allCompareMetrics() []struct{ name, expr string } {
	var out []struct{ name, expr string }
	for _, n := range model.CompareMetrics() {
		expr, ok := compareExprs[n]
		if !ok {
			panic("store: no expression for the compared metric " + n)
		}
		out = append(out, struct{ name, expr string }{n, expr})
	}
	for _, n := range model.ReportedFigures() {
		out = append(out, struct{ name, expr string }{n, "rr." + n})
	}
	return out
}

// sidesSQL is the expression giving 'base', 'vs' or NULL for a run r,
// and its arguments.
func sidesSQL(s CompareSides) (string, []any, error) {
	if s.All == "base" || s.All == "vs" {
		return "'" + s.All + "'", nil, nil
	}
	if s.Folders {
		// Sources are stored from the ingested folder's name down, so a
		// folder given with its parents also matches by its last element.
		a, b := s.Base, s.Vs
		under := `(r.source = ? OR starts_with(r.source, ? || '/') OR r.source = ? OR starts_with(r.source, ? || '/'))`
		ba, bb := path.Base(a), path.Base(b)
		if ba == bb {
			ba, bb = a, b // same last element: only the full paths tell them apart
		}
		return `CASE WHEN ` + under + ` THEN 'base' WHEN ` + under + ` THEN 'vs' END`, []any{a, a, ba, ba, b, b, bb, bb}, nil
	}
	col, key, err := labelValue(s.By)
	if err != nil {
		return "", nil, fmt.Errorf("compare by %w", err)
	}
	args := append(append(append(key, s.Base), key...), s.Vs)
	return "CASE WHEN " + col + " = ? THEN 'base' WHEN " + col + " = ? THEN 'vs' END", args, nil
}

// labelValue is the expression of the value of a label of a run r, as
// text: a CompareByColumns column, or a key of its labels; and the
// expression's arguments.
func labelValue(label string) (string, []any, error) {
	switch {
	case slices.Contains(model.CompareByColumns, label):
		return "CAST(r." + label + " AS VARCHAR)", nil, nil
	case model.LabelKey.MatchString(label):
		return "json_extract_string(r.labels, ?)", []any{`$."` + label + `"`}, nil
	}
	return "", nil, fmt.Errorf("%q: expected a runs column (%s) or a label key", label, strings.Join(model.CompareByColumns, ", "))
}

// CompareServers returns the servers of the runs of both sides: the runs
// a comparison reads are among theirs (Servers).
func (s *Store) CompareServers(ctx context.Context, sides CompareSides) (*Servers, error) {
	expr, args, err := sidesSQL(sides)
	if err != nil {
		return nil, err
	}
	servers, err := s.serversOf(ctx, "("+expr+") IS NOT NULL", args)
	if err != nil {
		return nil, fmt.Errorf("reading runs: %w", err)
	}
	return servers, nil
}

// CompareRun is one run of a side (model.CompareRun).
type CompareRun = model.CompareRun

// CompareRuns reads the runs of both sides with their metrics, ordered by
// run id: the runs of run_groups, each counted once (a k6 stream and its
// summary are one run; a harness record paired with a report is the
// report, with the record's CPU and memory). servers are the sides'
// (CompareServers): the groups of the others are not computed.
func (s *Store) CompareRuns(ctx context.Context, sides CompareSides, servers *Servers) ([]*CompareRun, error) {
	expr, args, err := sidesSQL(sides)
	if err != nil {
		return nil, err
	}
	keys := sides.Keys()
	cols := []string{"r.run_id", "r.side", "coalesce(r.block, '') AS block", "r.source", "coalesce(r.source_line, 0) AS line"}
	var colArgs []any
	for _, k := range keys {
		if k == "variant" {
			// the factors beside the columns, but the one the sides
			// are told apart by
			by := ""
			if !sides.Folders && sides.All == "" {
				by = sides.By
			}
			colArgs = append(colArgs, by)
			cols = append(cols, `nullif(array_to_string(list_transform(list_filter(r.factor_keys, k -> k <> ?), k -> k || '=' || coalesce(json_extract_string(r.factors, '$."' || k || '"'), '')), ', '), '') AS "key.variant"`)
			continue
		}
		cols = append(cols, "r."+k+` AS "key.`+k+`"`)
	}
	metrics := allCompareMetrics()
	for _, m := range metrics {
		cols = append(cols, m.expr+` AS "metric.`+m.name+`"`)
	}
	q := `SELECT ` + strings.Join(cols, ", ") + `
FROM (SELECT r.*, ` + expr + ` AS side
      FROM (SELECT r.* REPLACE (g.server AS server), g.mode, g.record_id, g.block, g.factor_keys, g.factors
            FROM run_groups g JOIN runs r ON r.run_id = g.run_id
            WHERE ` + serversWhere(servers, "r.server") + `) r) r
LEFT JOIN runs rec ON rec.run_id = r.record_id
LEFT JOIN cpu_per_request c ON c.run_id = coalesce(r.record_id, r.run_id)
LEFT JOIN run_reported rr ON rr.run_id = r.run_id
WHERE r.side IS NOT NULL
ORDER BY r.run_id`
	var out []*CompareRun
	err = s.eachNamed(ctx, q, append(colArgs, args...), func(row namedRow) error {
		r := &CompareRun{ID: row.text("run_id"), Side: row.text("side"), Block: row.text("block"), Source: row.text("source"), Line: int(row.int("line")),
			Values: map[string]float64{}}
		for _, k := range keys {
			r.Key = append(r.Key, row.get("key."+k))
		}
		for _, m := range metrics {
			if v := row.float("metric." + m.name); !math.IsNaN(v) {
				r.Values[m.name] = v
			}
		}
		out = append(out, r)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading runs: %w", err)
	}
	return out, nil
}

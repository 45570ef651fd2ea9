package ingest

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wra-bench/wra/model"
)

// checkRun refuses a run that no report can mean: a number that is not
// finite (a tool's nan or inf, or a printed value beyond float64, such as
// 1e400), a negative count, time or latency (or a count beyond int64 that
// wrapped around), or a percentile outside 0 to 100. (A records CSV
// stores a broken value of a figure as NULL with its text in the run's
// labels, so it never reaches this check.) Text that is not UTF-8 is
// kept with its bytes escaped (Input.keepNonUTF8). Every reader's runs
// pass through it, so these never reach the store whatever a reader
// lets through.
func checkRun(in *Input, name string, r *model.Run) error {
	bad := func(format string, args ...any) error {
		return Errorf(name, max(r.Line, 1), 0, "run %d: %s", r.Index, fmt.Sprintf(format, args...))
	}
	v := reflect.ValueOf(r).Elem()
	for i := 0; i < v.NumField(); i++ {
		field := v.Type().Field(i).Name
		switch x := v.Field(i).Interface().(type) {
		case model.Opt[float64]:
			if x.Valid && (math.IsNaN(x.V) || math.IsInf(x.V, 0)) {
				return bad("%s is %v: not a finite number", field, x.V)
			}
			if x.Valid && x.V < 0 {
				return bad("%s is %v: it cannot be negative", field, x.V)
			}
		case model.Opt[int64]:
			if x.Valid && x.V < 0 {
				return bad("%s is %d: it cannot be negative (or it overflowed 64 bits)", field, x.V)
			}
		case model.Opt[time.Time]:
		case string:
			if !utf8.ValidString(x) {
				v.Field(i).SetString(in.keepNonUTF8(r.Line, field, x))
			}
		}
	}
	for _, k := range model.SortedKeys(r.Labels) {
		val := r.Labels[k]
		if !utf8.ValidString(val) {
			r.Labels[k] = in.keepNonUTF8(r.Line, "label "+k, val)
		}
		if !utf8.ValidString(k) {
			esc := in.keepNonUTF8(r.Line, "label name", k)
			delete(r.Labels, k)
			r.Labels[esc] = val
		}
	}
	for _, p := range r.Percentiles {
		if !(p.Percentile >= 0 && p.Percentile <= 100) {
			return bad("percentile %v: want 0 to 100", p.Percentile)
		}
		if math.IsNaN(p.LatencyMS) || math.IsInf(p.LatencyMS, 0) || p.LatencyMS < 0 {
			return bad("latency %v ms at percentile %v: want a finite number, 0 or more", p.LatencyMS, p.Percentile)
		}
	}
	return nil
}

// An impossible value is a figure no measurement can give, whatever tool
// printed it: a latency of a run in which no request was answered, a
// percentile below a lower one (wrk's "99% 0.00us" under a p50 of 47.94
// ms). The one rule, for every reader's runs (guardSink): such a value is
// stored as NULL, its text kept in the label raw.<column>, the run's
// label warning and the file's warning say so at the run's line, and
// --strict refuses the file.

// roundingSlack is how far below a lower percentile a higher one may lie
// and still be a measurement, as a fraction of the lower: a tool that
// prints two significant figures (Locust's percentiles of 1,234 ms are
// 1,200) moves a value by up to 5%, so a single request's p90 of 1,200
// under its exact median of 1,234 is rounding, not an impossible value;
// wrk's 99% 0.00us under a p50 of 47.94 ms is impossible.
const roundingSlack = 0.05

// below reports whether x is below lo by more than rounding explains.
func below(x, lo float64) bool { return x < lo-roundingSlack*math.Abs(lo) }

// percentColumns are the percentile columns in the order of their
// percentiles.
var percentColumns = []struct {
	name string
	get  func(*model.Run) *model.Opt[float64]
}{
	{"latency_p50_ms", func(r *model.Run) *model.Opt[float64] { return &r.LatencyP50MS }},
	{"latency_p90_ms", func(r *model.Run) *model.Opt[float64] { return &r.LatencyP90MS }},
	{"latency_p95_ms", func(r *model.Run) *model.Opt[float64] { return &r.LatencyP95MS }},
	{"latency_p99_ms", func(r *model.Run) *model.Opt[float64] { return &r.LatencyP99MS }},
	{"latency_p999_ms", func(r *model.Run) *model.Opt[float64] { return &r.LatencyP999MS }},
}

// latencyColumns are every latency column of a run.
var latencyColumns = append([]struct {
	name string
	get  func(*model.Run) *model.Opt[float64]
}{
	{"latency_mean_ms", func(r *model.Run) *model.Opt[float64] { return &r.LatencyMeanMS }},
	{"latency_stdev_ms", func(r *model.Run) *model.Opt[float64] { return &r.LatencyStdevMS }},
	{"latency_max_ms", func(r *model.Run) *model.Opt[float64] { return &r.LatencyMaxMS }},
}, percentColumns...)

// noAnswer reports whether the run's counts say that no request got an
// answer: none answered with any status, or no request at all.
func noAnswer(r *model.Run) bool {
	return r.Responses2xx.Valid && r.Non2xx.Valid && r.Responses2xx.V+r.Non2xx.V == 0 ||
		r.Requests.Valid && r.Requests.V == 0
}

// impossible stores the impossible values of a run as NULL (see above)
// and returns what it said, "" for none.
func impossible(in *Input, name string, r *model.Run) (string, error) {
	var said []string
	clear := func(column string, x *model.Opt[float64], why string) {
		runLabel(r, "raw."+column, fmtLabelNum(x.V))
		said = append(said, fmt.Sprintf("%s %s %s", column, fmtLabelNum(x.V), why))
		if in != nil {
			in.broke(r.Line, column, fmtLabelNum(x.V))
		}
		*x = model.Opt[float64]{}
	}
	if noAnswer(r) {
		for _, c := range latencyColumns {
			if x := c.get(r); x.Valid {
				clear(c.name, x, "of a run in which no request was answered")
			}
		}
		if len(r.Percentiles) > 0 {
			runLabel(r, "raw.latency_percentiles", percentText(r.Percentiles))
			said = append(said, fmt.Sprintf("%d latency percentiles of a run in which no request was answered", len(r.Percentiles)))
			if in != nil {
				in.broke(r.Line, "latency_percentiles", percentText(r.Percentiles))
			}
			r.Percentiles = nil
		}
	}
	lo, loName := math.Inf(-1), ""
	for _, c := range percentColumns {
		x := c.get(r)
		switch {
		case !x.Valid:
		case below(x.V, lo):
			clear(c.name, x, "below "+loName+" "+fmtLabelNum(lo))
		default:
			lo, loName = x.V, c.name
		}
	}
	if dropped := monotoneSpectrum(r); len(dropped) > 0 {
		runLabel(r, "raw.latency_percentiles", percentText(dropped))
		said = append(said, fmt.Sprintf("latency percentiles %s below a lower percentile's", percentText(dropped)))
		if in != nil {
			in.broke(r.Line, "latency_percentiles", percentText(dropped))
		}
	}
	if len(said) == 0 {
		return "", nil
	}
	msg := fmt.Sprintf("line %d: %s: stored as NULL (raw.* labels keep them)", max(r.Line, 1), strings.Join(said, "; "))
	if in != nil && in.Strict {
		return "", Errorf(name, max(r.Line, 1), 0, "run %d: %s: impossible values (--strict)", r.Index, strings.Join(said, "; "))
	}
	if w := r.Labels["warning"]; w != "" {
		msg = w + "; " + msg
	}
	runLabel(r, "warning", msg)
	return msg, nil
}

// monotoneSpectrum drops from each spectrum of a run (the corrected and
// the uncorrected apart) the rows whose latency is below that of a lower
// percentile, and returns them.
func monotoneSpectrum(r *model.Run) []model.Percentile {
	if len(r.Percentiles) < 2 {
		return nil
	}
	ps := slicesClone(r.Percentiles)
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].Corrected != ps[j].Corrected {
			return !ps[i].Corrected
		}
		return ps[i].Percentile < ps[j].Percentile
	})
	var kept, dropped []model.Percentile
	for i, p := range ps {
		if i > 0 && ps[i-1].Corrected != p.Corrected {
			kept = append(kept, p)
			continue
		}
		if n := len(kept); n > 0 && kept[n-1].Corrected == p.Corrected && below(p.LatencyMS, kept[n-1].LatencyMS) {
			dropped = append(dropped, p)
			continue
		}
		kept = append(kept, p)
	}
	if len(dropped) == 0 {
		return nil
	}
	// Keep the reader's order for the rows that stay.
	out := r.Percentiles[:0]
	for _, p := range r.Percentiles {
		drop := false
		for _, d := range dropped {
			if d == p {
				drop = true
				break
			}
		}
		if !drop {
			out = append(out, p)
		}
	}
	r.Percentiles = out
	return dropped
}

func slicesClone(p []model.Percentile) []model.Percentile {
	return append([]model.Percentile(nil), p...)
}

// percentText writes percentiles as "50=47.94 99=0".
func percentText(ps []model.Percentile) string {
	var parts []string
	for _, p := range ps {
		parts = append(parts, fmtLabelNum(p.Percentile)+"="+fmtLabelNum(p.LatencyMS))
	}
	return strings.Join(parts, " ")
}

// checkSample refuses a point whose value is not finite; text that is
// not UTF-8 is kept with its bytes escaped.
func checkSample(in *Input, name string, s *model.Sample) error {
	if math.IsNaN(s.Value) || math.IsInf(s.Value, 0) {
		return Errorf(name, 0, 0, "%s point at %s: value %v is not a finite number", s.Metric, s.TS.Format(time.RFC3339Nano), s.Value)
	}
	if !utf8.ValidString(s.Metric) {
		s.Metric = in.keepNonUTF8(0, "sample metric", s.Metric)
	}
	if !utf8.ValidString(s.Tags) {
		s.Tags = in.keepNonUTF8(0, "sample tags", s.Tags)
	}
	return nil
}

// guardSink checks every run and point a reader writes (checkRun,
// impossible, checkSample) before it reaches the sink inside.
type guardSink struct {
	model.Sink
	name string
	in   *Input // where warnings go; nil in tests that read no file
}

func (g *guardSink) Run(r *model.Run) error {
	if err := checkRun(g.in, g.name, r); err != nil {
		return err
	}
	if _, err := impossible(g.in, g.name, r); err != nil {
		return err
	}
	return g.Sink.Run(r)
}

func (g *guardSink) Sample(run int, s *model.Sample) error {
	if err := checkSample(g.in, g.name, s); err != nil {
		return err
	}
	return g.Sink.Sample(run, s)
}

// BulkSamples hands a per-point file to the sink inside when it has a bulk
// loader; the store's scanner refuses what is not a number itself.
func (g *guardSink) BulkSamples(run int, in *model.BulkInput) (*model.BulkResult, error) {
	if b, ok := g.Sink.(model.BulkSink); ok {
		return b.BulkSamples(run, in)
	}
	return nil, model.ErrBulkUnsupported
}

package ingest

import (
	"fmt"
	"math"
	"reflect"
	"time"
	"unicode/utf8"

	"github.com/wra-bench/wra/model"
)

// checkRun refuses a run that no report can mean: a number that is not
// finite (a tool's nan or inf, or a printed value beyond float64, such as
// 1e400), a negative count, time or latency (or a count beyond int64 that
// wrapped around), a percentile outside 0 to 100, or text that is not
// UTF-8. (A records CSV stores a broken value of a figure as NULL with
// its text in the run's labels, so it never reaches this check.) Every
// reader's runs pass through it, so these never reach the store whatever
// a reader lets through.
func checkRun(name string, r *model.Run) error {
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
				return bad("%s %q is not UTF-8 text", field, x)
			}
		}
	}
	for _, k := range model.SortedKeys(r.Labels) {
		if !utf8.ValidString(k) || !utf8.ValidString(r.Labels[k]) {
			return bad("label %q = %q is not UTF-8 text", k, r.Labels[k])
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

// checkSample refuses a point whose value is not finite or whose text is
// not UTF-8.
func checkSample(name string, s *model.Sample) error {
	switch {
	case math.IsNaN(s.Value) || math.IsInf(s.Value, 0):
		return Errorf(name, 0, 0, "%s point at %s: value %v is not a finite number", s.Metric, s.TS.Format(time.RFC3339Nano), s.Value)
	case !utf8.ValidString(s.Metric) || !utf8.ValidString(s.Tags):
		return Errorf(name, 0, 0, "%q point at %s: metric or tags not UTF-8 text", s.Metric, s.TS.Format(time.RFC3339Nano))
	}
	return nil
}

// guardSink checks every run and point a reader writes (checkRun,
// checkSample) before it reaches the sink inside.
type guardSink struct {
	model.Sink
	name string
}

func (g *guardSink) Run(r *model.Run) error {
	if err := checkRun(g.name, r); err != nil {
		return err
	}
	return g.Sink.Run(r)
}

func (g *guardSink) Sample(run int, s *model.Sample) error {
	if err := checkSample(g.name, s); err != nil {
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

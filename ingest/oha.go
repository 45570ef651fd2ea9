package ingest

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

// oha (hatoo/oha, the Rust successor of hey; read from the layouts of 0.4
// to 1.16) prints hey's text report with a "Success rate:" line, or with
// --output-format json (-j) one JSON document. oha counts every request
// that got an HTTP response, whatever its status, as a success; the
// requests that got none are its Error distribution, where "aborted due to
// deadline" counts the requests still in flight when -z ran out.

func init() {
	register(&Format{Name: "hey", Priority: 40, Late: true, Detect: detectHey, Read: readHey})
	register(&Format{Name: "oha", Priority: 40, Late: true, Detect: detectOha, Read: readOha})
	register(&Format{Name: "oha-json", Priority: 40, Detect: detectOhaJSON, Read: readOhaJSON})
}

func detectHey(head []byte) bool { return heyFamilyOf(head) == heyTool }
func detectOha(head []byte) bool { return heyFamilyOf(head) == ohaTool }

func readHey(in *Input, sink model.Sink) error { return readHeyText(in, sink, heyTool) }
func readOha(in *Input, sink model.Sink) error { return readHeyText(in, sink, ohaTool) }

// heyFamilyOf tells which of hey and oha printed a text report, or nil
// for neither: a "Summary:" line with a "Requests/sec:" line after it is
// one of them, and it is oha's when anything only oha prints is there: a
// "Success rate:" or "Size/sec:" line, a "Response time distribution:"
// heading, or a time in another unit than hey's "secs".
func heyFamilyOf(head []byte) *heyDialect {
	summary, rate, oha := false, false, false
	hasLine(head, func(l string) bool {
		key, val, _ := strings.Cut(l, ":")
		val = strings.TrimSpace(val)
		switch {
		case l == "Summary:":
			summary = true
		case !summary:
		case key == "Requests/sec":
			rate = true
		case key == "Success rate" || key == "Size/sec" || l == "Response time distribution:" ||
			strings.HasPrefix(l, "Response time histogram ("):
			oha = true
		case key == "Total" || key == "Slowest" || key == "Average":
			if _, unit, ok := strings.Cut(val, " "); ok && unit != "secs" && unit != "bytes" {
				_, oha = ohaTool.units[unit]
			}
		}
		return oha && rate
	})
	switch {
	case !summary || !rate:
		return nil
	case oha:
		return ohaTool
	}
	return heyTool
}

func detectOhaJSON(head []byte) bool {
	return hasJSONKeys(head, "summary", "statusCodeDistribution", "errorDistribution")
}

// ohaJSON is the -j document; times in seconds, null where oha had no
// sample (serde writes NaN as null).
type ohaJSON struct {
	Summary *struct {
		SuccessRate    *float64     `json:"successRate"`
		Total          *json.Number `json:"total"`
		Slowest        *json.Number `json:"slowest"`
		Fastest        *json.Number `json:"fastest"`
		Average        *json.Number `json:"average"`
		RequestsPerSec *float64     `json:"requestsPerSec"`
		TotalData      *int64       `json:"totalData"`
		SizePerSec     *float64     `json:"sizePerSec"`
	} `json:"summary"`
	// RPS is oha's statistics of its request rate sampled over the run
	// (null where it had no sample).
	RPS *struct {
		Mean        *float64            `json:"mean"`
		Stddev      *float64            `json:"stddev"`
		Max         *float64            `json:"max"`
		Min         *float64            `json:"min"`
		Percentiles map[string]*float64 `json:"percentiles"`
	} `json:"rps"`
	LatencyPercentiles map[string]*json.Number `json:"latencyPercentiles"`
	StatusCodes        map[string]int64        `json:"statusCodeDistribution"`
	Errors             map[string]int64        `json:"errorDistribution"`
}

// readOhaJSON reads oha -j. requests are the status counts plus the
// errors other than "aborted due to deadline"; rps is oha's requestsPerSec
// (every request, the aborted ones too, over total).
func readOhaJSON(in *Input, sink model.Sink) error {
	var v ohaJSON
	_, line, err := readJSONDoc(in, &v, "oha JSON")
	if err != nil {
		return err
	}
	missing := func(what string) error { return Errorf(in.Name, line, 0, "oha JSON: missing %s", what) }
	switch {
	case v.Summary == nil:
		return missing("summary")
	case v.StatusCodes == nil:
		return missing("statusCodeDistribution")
	case v.Errors == nil:
		return missing("errorDistribution")
	}
	r := &model.Run{Tool: "oha", Line: line}
	for c, n := range v.StatusCodes {
		if _, err := strconv.Atoi(c); err != nil || n < 0 {
			return Errorf(in.Name, line, 0, "oha JSON: statusCodeDistribution: expected \"code\": count, found %q: %d", c, n)
		}
	}
	for msg, n := range v.Errors {
		if n < 0 {
			return Errorf(in.Name, line, 0, "oha JSON: errorDistribution: negative count %d for %q", n, msg)
		}
	}
	c := countResponses(v.StatusCodes, v.Errors, true)
	if c.n2xx+c.non2xx+c.errors+c.aborted == 0 {
		return Errorf(in.Name, line, 0, "oha JSON counts no request: no status code and no error")
	}
	r.Requests = model.Some(c.n2xx + c.non2xx + c.errors)
	r.Responses2xx = model.Some(c.n2xx)
	r.Non2xx = model.Some(c.non2xx)
	r.Errors = model.Some(c.errors)
	c.label(r, v.StatusCodes, v.Errors)
	s := v.Summary
	for _, f := range []struct {
		what string
		x    *json.Number
		dst  *model.Opt[float64]
	}{{"slowest", s.Slowest, &r.LatencyMaxMS}, {"average", s.Average, &r.LatencyMeanMS}} {
		if f.x == nil {
			continue
		}
		ms, err := jsonNumberMS(*f.x, 3)
		if err != nil {
			return Errorf(in.Name, line, 0, "oha JSON: summary.%s: expected seconds >= 0, found %s", f.what, *f.x)
		}
		*f.dst = model.Some(ms)
	}
	if s.Total != nil {
		d, err := strconv.ParseFloat(string(*s.Total), 64)
		if err != nil || d < 0 || math.IsInf(d, 0) {
			return Errorf(in.Name, line, 0, "oha JSON: summary.total: expected seconds >= 0, found %s", *s.Total)
		}
		r.DurationS = model.Some(d)
	}
	if s.RequestsPerSec != nil {
		r.RPS = model.Some(*s.RequestsPerSec)
	}
	if s.TotalData != nil {
		r.BytesRead = model.Some(*s.TotalData)
	}
	if s.SuccessRate != nil {
		if pct, ok := ratioPct(*s.SuccessRate); ok {
			reported(r, model.ReportedSuccessPct, pct)
		}
	}
	if s.SizePerSec != nil {
		reported(r, model.ReportedTransferBytesPerS, *s.SizePerSec)
	}
	if x := v.RPS; x != nil {
		for stat, f := range map[string]*float64{"mean": x.Mean, "stdev": x.Stddev, "max": x.Max, "min": x.Min} {
			if f != nil {
				reported(r, model.ReportedRPSPrefix+stat, *f)
			}
		}
		for k, f := range x.Percentiles {
			p, err := strconv.ParseFloat(strings.TrimPrefix(k, "p"), 64)
			if f != nil && strings.HasPrefix(k, "p") && err == nil && p >= 0 && p <= 100 {
				reported(r, model.ReportedRPSPrefix+percentName(p), *f)
			}
		}
	}
	for k, x := range v.LatencyPercentiles {
		p, err := strconv.ParseFloat(strings.TrimPrefix(k, "p"), 64)
		if !strings.HasPrefix(k, "p") || err != nil || p < 0 || p > 100 {
			return Errorf(in.Name, line, 0, "oha JSON: latencyPercentiles: expected a key p<percent>, found %q", k)
		}
		if x == nil {
			continue // null: no answered request
		}
		ms, err := jsonNumberMS(*x, 3)
		if err != nil {
			return Errorf(in.Name, line, 0, "oha JSON: latencyPercentiles.%s: expected seconds >= 0, found %s", k, *x)
		}
		r.Percentiles = append(r.Percentiles, model.Percentile{Percentile: p, LatencyMS: ms})
	}
	sortPercentiles(r.Percentiles)
	runLabel(r, "percentile_method", ohaTool.method)
	spectrumColumns(r)
	return sink.Run(r)
}

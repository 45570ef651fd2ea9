package ingest

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

// drill (github.com/fcsonline/drill) prints with --stats, after the lines
// of each request, a block per request name ("<name>  Total requests  N"
// …) and the summary of all of them: Time taken for tests, Total,
// Successful and Failed requests, Requests per second, the median,
// average and sample standard deviation of the times and, since 2021,
// their 99.0'th, 99.5'th and 99.9'th percentiles (an HdrHistogram of
// microseconds with 2 significant digits), every time rounded to a whole
// ms ("115ms") or, with --nanosec, ns. In 2019 the summary began with
// "Concurrency Level N". Total counts every request made; Successful the
// answers with a 2xx status; Failed all others: answers with another
// status and requests that got no answer, which drill records with the
// status 520, so the two cannot be told apart. Requests per second is
// Total over the run's wall time.

func init() {
	registerReports("drill", 40, detectDrill, drillReports)
}

var drillReports = &reportFormat{
	tool:  "drill",
	first: `"Time taken for tests  N seconds" (or "Concurrency Level  N")`,
	begins: func(t string) bool {
		return drillTimeTaken.MatchString(t) || drillConcurrency.MatchString(t)
	},
	read: readDrillReport,
	body: func(t string) bool {
		m := drillLine.FindStringSubmatch(t)
		return m != nil && m[1] != "Concurrency Level" && m[1] != "Time taken for tests"
	},
}

var (
	drillTimeTaken   = regexp.MustCompile(`^Time taken for tests\s+([0-9.]+) seconds$`)
	drillConcurrency = regexp.MustCompile(`^Concurrency Level\s+(\d+)$`)
	drillLine        = regexp.MustCompile(`^(Concurrency Level|Time taken for tests|Total requests|Successful requests|Failed requests|Requests per second|Median time per request|Average time per request|Sample standard deviation|Max time per request|[0-9.]+'th percentile)\s+(.*)$`)
	drillPercentile  = regexp.MustCompile(`^([0-9.]+)'th percentile$`)
)

func detectDrill(head []byte) bool {
	taken := false
	return hasLine(head, func(t string) bool {
		taken = taken || drillTimeTaken.MatchString(t)
		return taken && strings.HasPrefix(t, "Total requests") && drillLine.MatchString(t)
	})
}

// readDrillReport reads the summary of all requests, from its first line
// to its last.
func readDrillReport(l *Lines, _ model.Sink) (*model.Run, error) {
	l.Scan()
	r := &model.Run{Tool: "drill", Line: l.Line()}
	l.Unread()
	var (
		warnings []string
		failed   model.Opt[int64]
		seen     = map[string]bool{}
	)
	count := func(key, v string) (int64, error) {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return 0, l.Errorf(1, "drill %s: expected a count, found %q", key, clipQuote(v))
		}
		return n, nil
	}
	for l.Scan() {
		t := strings.TrimSpace(l.Text())
		m := drillLine.FindStringSubmatch(t)
		if m == nil || seen[m[1]] {
			if t == "" && len(seen) == 1 {
				continue
			}
			l.Unread() // the report ended above (or the next one begins)
			break
		}
		key, v := m[1], strings.TrimSpace(m[2])
		seen[key] = true
		switch {
		case key == "Concurrency Level":
			n, err := count(key, v)
			if err != nil {
				return nil, err
			}
			r.Connections = model.Some(n)
		case key == "Time taken for tests":
			s, ok := strings.CutSuffix(v, " seconds")
			if _, err := strconv.ParseFloat(s, 64); !ok || err != nil {
				return nil, l.Errorf(1, "drill %s: expected \"N seconds\", found %q", key, clipQuote(v))
			}
			runLabel(r, "time_taken_s", s)
		case key == "Total requests":
			n, err := count(key, v)
			if err != nil {
				return nil, err
			}
			r.Requests = model.Some(n)
		case key == "Successful requests":
			n, err := count(key, v)
			if err != nil {
				return nil, err
			}
			r.Responses2xx = model.Some(n)
		case key == "Failed requests":
			n, err := count(key, v)
			if err != nil {
				return nil, err
			}
			failed = model.Some(n)
			runLabel(r, "failed_requests", v)
		case key == "Requests per second":
			s, ok := strings.CutSuffix(v, " [#/sec]")
			x, err := strconv.ParseFloat(s, 64)
			if !ok || err != nil || x < 0 {
				return nil, l.Errorf(1, "drill %s: expected \"R [#/sec]\", found %q", key, clipQuote(v))
			}
			r.RPS = model.Some(x)
		default:
			ms, ok := drillTime(v)
			if !ok {
				warnings = append(warnings, cutValueWarning(l.Line(), "drill "+key, v))
				continue
			}
			switch key {
			case "Median time per request":
				r.LatencyP50MS = model.Some(ms)
				r.Percentiles = append(r.Percentiles, model.Percentile{Percentile: 50, LatencyMS: ms})
			case "Average time per request":
				r.LatencyMeanMS = model.Some(ms)
			case "Sample standard deviation":
				r.LatencyStdevMS = model.Some(ms)
			case "Max time per request":
				r.LatencyMaxMS = model.Some(ms)
			default:
				p, _ := strconv.ParseFloat(drillPercentile.FindStringSubmatch(key)[1], 64)
				if p <= 0 || p > 100 {
					return nil, l.Errorf(1, "drill: expected a percentile from 0 to 100, found %q", clipQuote(key))
				}
				r.Percentiles = append(r.Percentiles, model.Percentile{Percentile: p, LatencyMS: ms})
			}
		}
	}
	if err := l.Err(); err != nil {
		return nil, err
	}
	if !r.Requests.Valid {
		return nil, Errorf(l.in.Name, l.Line()+1, 0, `drill summary from line %d ends before its "Total requests" line`, r.Line)
	}
	if failed.Valid && failed.V == 0 {
		r.Non2xx, r.Errors = model.Some(int64(0)), model.Some(int64(0))
	}
	sortPercentiles(r.Percentiles)
	spectrumColumns(r)
	if len(warnings) > 0 {
		runLabel(r, "warning", strings.Join(warnings, "; "))
	}
	return r, nil
}

// drillTime reads a time as drill prints it: whole ms ("115ms") or, with
// --nanosec, ns ("116521979ns").
func drillTime(v string) (float64, bool) {
	for _, u := range []struct {
		suffix string
		exp    int
	}{{"ms", 0}, {"ns", -6}} {
		if num, ok := strings.CutSuffix(v, u.suffix); ok {
			ms, err := decimalMS(num, u.exp)
			return ms, err == nil && ms >= 0
		}
	}
	return 0, false
}

package ingest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

// autocannon's text report (lib/printResult.js, progressTracker.js before
// 4.x): "Running 10s test @ url", "N connections", a Latency table
// (since 2.4: Stat 2.5% 50% 97.5% 99% Avg Stdev Max, cells "13 ms";
// before: Stat Avg Stdev Max with a row "Latency (ms)"), a Req/Sec and
// Bytes/Sec table of per-second samples, then "N 2xx responses, M non
// 2xx responses" (when some were not 2xx), "Nk requests in 10.05s, 27.9
// MB read" and "N errors (M timeouts)" (when some). The tables are drawn
// with box characters since 3.x, with spaces in 2.4. Counts of 1000 or
// more print rounded to thousands ("251k"), and the "requests in" count
// is the completed requests before 7.4 and the requests sent since.

func init() {
	registerReports("autocannon", 40, detectAutocannonText, autocannonReports)
}

var autocannonReports = &reportFormat{
	tool:  "autocannon",
	first: `"Running …s test @ …" or the Latency table`,
	begins: func(t string) bool {
		c := acTableRow(t)
		return acRunning.MatchString(t) || len(c) > 0 && c[0] == "Stat"
	},
	read: readAutocannonReport,
	body: func(t string) bool { return acRequestsIn.MatchString(t) },
}

var (
	acRunning    = regexp.MustCompile(`^Running (\S+) test @ (\S+)$`)
	acConns      = regexp.MustCompile(`^(\d+) connections(?: with (\d+) pipelining factor)?$`)
	acStatus     = regexp.MustCompile(`^(\d+) 2xx responses, (\d+) non 2xx responses$`)
	acRequestsIn = regexp.MustCompile(`^(\d+k?) requests in ([0-9.]+)s, (.+) read$`)
	acErrors     = regexp.MustCompile(`^(\d+k?) errors \((\d+k?) timeouts\)$`)
)

func detectAutocannonText(head []byte) bool {
	var bytesRow bool
	return hasLine(head, func(t string) bool {
		if c := acTableRow(t); len(c) > 0 && c[0] == "Bytes/Sec" {
			bytesRow = true
		}
		return bytesRow && acRequestsIn.MatchString(t)
	})
}

// acTableRow splits a row of a table into its cells: between box
// characters (3.x on), or, for the space-aligned tables of 2.4, into the
// row's name and its values, a number with the unit after it ("13 ms",
// "4.78 MB") being one cell. It returns nil for a border or another line.
func acTableRow(t string) []string {
	if strings.HasPrefix(t, "│") {
		var cells []string
		for _, c := range strings.Split(strings.Trim(t, "│"), "│") {
			cells = append(cells, strings.TrimSpace(c))
		}
		return cells
	}
	f := strings.Fields(t)
	if len(f) < 2 {
		return nil
	}
	var name string
	switch {
	case f[0] == "Stat" || f[0] == "Req/Sec" || f[0] == "Bytes/Sec":
		name, f = f[0], f[1:]
	case f[0] == "Latency" && len(f) > 2 && f[1] == "(ms)":
		name, f = "Latency (ms)", f[2:]
	case f[0] == "Latency":
		name, f = f[0], f[1:]
	default:
		return nil
	}
	cells := []string{name}
	for _, x := range f {
		if _, err := strconv.ParseFloat(x, 64); err != nil && len(cells) > 1 && name != "Stat" {
			cells[len(cells)-1] += " " + x // the unit of the number before
			continue
		}
		cells = append(cells, x)
	}
	return cells
}

// readAutocannonReport reads one report up to its "requests in" line
// and the error lines after it. requests is 2xx + non-2xx where the
// report prints them (the completed requests, as autocannon --json's
// requests.total), else NULL: its "requests in" count is rounded to
// thousands and, since 7.4, counts the requests sent (label
// reported_requests keeps it); errors the error events; rps requests /
// duration where requests is known; the latency columns the Latency
// table (ms).
func readAutocannonReport(l *Lines, _ model.Sink) (*model.Run, error) {
	r := &model.Run{Tool: "autocannon"}
	var header []string
	done := false
	for l.Scan() {
		t := strings.TrimSpace(l.Text())
		if r.Line == 0 {
			r.Line = l.Line()
		}
		if t == "" || strings.Trim(t, "─┌┬┐├┼┤└┴┘") == "" {
			continue
		}
		switch {
		case done:
			if m := acErrors.FindStringSubmatch(t); m != nil {
				if n, ok := acCount(m[1]); ok {
					r.Errors = model.Some(n)
				} else {
					r.Errors = model.Opt[int64]{}
					if x, ok := countValue(m[1]); ok {
						reported(r, model.ReportedErrors, x)
					}
				}
				runLabel(r, "timeouts", m[2])
				continue
			}
			if acCutErrors(t) {
				// "21k err": the errors line, cut short: how many is
				// not known.
				r.Errors = model.Opt[int64]{}
				continue
			}
			l.Unread()
			return acFinish(r), nil
		case acRunning.MatchString(t):
			if r.Line != l.Line() {
				l.Unread()
				return nil, l.Errorf(1, "autocannon report from line %d ends early: expected its \"requests in\" line, found the start of another report", r.Line)
			}
			m := acRunning.FindStringSubmatch(t)
			runLabel(r, "url", m[2])
			runLabel(r, "requested_duration", m[1])
		case acConns.MatchString(t):
			m := acConns.FindStringSubmatch(t)
			n, _ := strconv.ParseInt(m[1], 10, 64)
			r.Connections = model.Some(n)
			if m[2] != "" {
				runLabel(r, "pipelining", m[2])
			}
		case acStatus.MatchString(t):
			m := acStatus.FindStringSubmatch(t)
			a, _ := strconv.ParseInt(m[1], 10, 64)
			b, _ := strconv.ParseInt(m[2], 10, 64)
			r.Responses2xx, r.Non2xx = model.Some(a), model.Some(b)
		case acRequestsIn.MatchString(t):
			m := acRequestsIn.FindStringSubmatch(t)
			if x, ok := countValue(m[1]); ok { // "251k": rounded from 1000 on
				reported(r, model.ReportedRequests, x)
			}
			if n, ok := acCount(m[1]); ok && n == 0 && !r.Responses2xx.Valid {
				// Nothing completed (nor sent, since 7.4): no answer.
				zero := model.Some(int64(0))
				r.Responses2xx, r.Non2xx = zero, zero
			}
			if b, ok := sizeBytes(m[3], decimalBase); ok { // pretty-bytes: kB of 1000
				reported(r, model.ReportedBytesRead, b)
			}
			d, err := decimalMS(m[2], 0)
			if err != nil {
				return nil, l.Errorf(1, "autocannon: expected the duration in s, found %q", m[2])
			}
			r.DurationS = model.Some(d)
			r.Errors = model.Some(int64(0)) // the errors line follows when some
			done = true
		case acTableRow(t) != nil:
			c := acTableRow(t)
			if c[0] == "Stat" {
				header = c
				continue
			}
			if err := acRow(r, header, c); err != nil {
				return nil, l.Errorf(1, "autocannon %s table: %v", c[0], err)
			}
		case strings.HasPrefix(t, "Req/Bytes counts sampled") || strings.HasPrefix(t, "# of samples:"):
		default:
			if r.LatencyMeanMS.Valid || r.Connections.Valid {
				return nil, l.Errorf(1, "autocannon report from line %d: unexpected line %q before its \"requests in\" line", r.Line, clipQuote(t))
			}
		}
	}
	if err := l.Err(); err != nil {
		return nil, err
	}
	if !done {
		return nil, Errorf(l.in.Name, l.Line()+1, 0, "autocannon report from line %d ends before its \"N requests in Ns, … read\" line", r.Line)
	}
	return acFinish(r), nil
}

// acFinish sets the counts that the report's lines together give.
func acFinish(r *model.Run) *model.Run {
	if !r.Responses2xx.Valid && !r.LatencyMeanMS.Valid && len(r.Percentiles) == 0 {
		// Neither an exact count nor a latency: nothing to store but
		// the rounded "requests in" count, which is not a number of
		// the run. Keep the run for its duration and labels, with a
		// warning.
		runLabel(r, "warning", "the autocannon report prints no exact count and no Latency table: only its duration is stored")
	}
	if mean, ok := r.Labels[model.ReportedRPSPrefix+"mean"]; ok && mean == "0" && !r.Responses2xx.Valid {
		// A Req/Sec average of 0: not one second saw a response (every
		// request errored, or nothing listened). Nothing was answered.
		zero := model.Some(int64(0))
		r.Responses2xx, r.Non2xx = zero, zero
		if sent := r.Labels[model.ReportedRequests]; sent != "" && sent != "0" && r.Errors.Valid && r.Errors.V == 0 {
			// Requests went out and none was answered: they errored, and
			// a count of 0 is an errors line the file lost.
			r.Errors = model.Opt[int64]{}
		}
	}
	switch mean, ok := r.Labels[model.ReportedRPSPrefix+"mean"]; {
	case r.Responses2xx.Valid:
		n := r.Responses2xx.V + r.Non2xx.V
		r.Requests = model.Some(n)
		if r.DurationS.Valid && r.DurationS.V > 0 {
			r.RPS = model.Some(float64(n) / r.DurationS.V)
		}
	case ok:
		// The count is printed rounded ("251k"): the rate is the Req/Sec
		// average, exact, and what autocannon's users quote.
		x, _ := strconv.ParseFloat(mean, 64)
		r.RPS = model.Some(x)
		runLabel(r, "rps_basis", acRPSBasis)
	}
	if len(r.Percentiles) > 0 {
		sortPercentiles(r.Percentiles)
		spectrumColumns(r)
		runLabel(r, "percentile_method", autocannonPercentMethod)
	}
	return r
}

// acCutErrors reports whether a line is the start of the errors line,
// "N errors (M timeouts)", cut short ("21k err").
func acCutErrors(t string) bool {
	n, rest, ok := strings.Cut(t, " ")
	if _, num := countValue(n); !ok || !num || rest == "" {
		return false
	}
	whole := "errors ("
	return strings.HasPrefix(whole, rest) || strings.HasPrefix(rest, whole) && !strings.HasSuffix(rest, "timeouts)")
}

// acRPSBasis says where the rate of a report without an exact count
// comes from.
const acRPSBasis = "autocannon's Req/Sec Avg (the mean of its per-second samples): the report prints its request count rounded"

// acCount reads a count that is exact: below 1000, printed without "k".
func acCount(s string) (int64, bool) {
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// acRow files a table row under the header's columns.
func acRow(r *model.Run, header, cells []string) error {
	if len(header) != len(cells) {
		return fmt.Errorf("%d cells under a header of %d", len(cells), len(header))
	}
	for i, col := range header[1:] {
		v := cells[i+1]
		switch cells[0] {
		case "Latency", "Latency (ms)":
			ms, err := acLatency(v, cells[0] == "Latency (ms)")
			if err != nil {
				return fmt.Errorf("%s: %v", col, err)
			}
			switch col {
			case "Avg":
				r.LatencyMeanMS = model.Some(ms)
			case "Stdev":
				r.LatencyStdevMS = model.Some(ms)
			case "Max":
				r.LatencyMaxMS = model.Some(ms)
			default:
				p, err := strconv.ParseFloat(strings.TrimSuffix(col, "%"), 64)
				if err != nil || !strings.HasSuffix(col, "%") || !(p > 0 && p <= 100) {
					return fmt.Errorf("unexpected column %q", col)
				}
				r.Percentiles = append(r.Percentiles, model.Percentile{Percentile: p, LatencyMS: ms})
			}
		case "Req/Sec", "Bytes/Sec":
			stat, ok := acStat(col)
			if !ok {
				return fmt.Errorf("unexpected column %q", col)
			}
			if cells[0] == "Req/Sec" {
				x, err := strconv.ParseFloat(v, 64)
				if err != nil || x < 0 {
					return fmt.Errorf("%s: expected a rate, found %q", col, clipQuote(v))
				}
				reported(r, model.ReportedRPSPrefix+stat, x)
				continue
			}
			b, ok := sizeBytes(v, decimalBase)
			if !ok {
				return fmt.Errorf("%s: expected a size such as 2.79 MB, found %q", col, clipQuote(v))
			}
			reported(r, model.ReportedTransferPrefix+stat, b)
		}
	}
	return nil
}

// acStat names a column of the Req/Sec and Bytes/Sec rows (statistics
// of autocannon's per-second samples) in the canonical set: Avg is mean,
// 2.5% p2_5.
func acStat(col string) (string, bool) {
	switch col {
	case "Avg":
		return "mean", true
	case "Stdev":
		return "stdev", true
	case "Min", "Max":
		return strings.ToLower(col), true
	}
	p, err := strconv.ParseFloat(strings.TrimSuffix(col, "%"), 64)
	if err != nil || !strings.HasSuffix(col, "%") || !(p >= 0 && p <= 100) {
		return "", false
	}
	return percentName(p), true
}

// acLatency reads a latency cell: "13 ms", "0.02 ms", or a bare number
// in a "Latency (ms)" row. Any other unit, or a cut one, is an error.
func acLatency(v string, bare bool) (float64, error) {
	num, unit, _ := strings.Cut(v, " ")
	if unit != "ms" && !(bare && unit == "") {
		return 0, fmt.Errorf(`expected "N ms", found %q`, clipQuote(v))
	}
	ms, err := decimalMS(num, 0)
	if err != nil {
		return 0, fmt.Errorf(`expected "N ms", found %q`, clipQuote(v))
	}
	return ms, nil
}

package ingest

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

// cassowary (github.com/rogerwelin/cassowary) prints, when a run ends, the
// mean, median and 95th percentile of three phases of a request (TCP
// Connect, Server Processing, Content Transfer; TLS Handshake over TLS)
// and a Summary: Total Req (the requests asked for, all of them done:
// cassowary stops without a report at the first request that gets no
// answer), Failed Req (answers with a status above 226), the median DNS
// lookup and Req/s (Total Req over the run's wall time). It prints no
// latency of the whole request: the phases are labels, and the latency
// columns stay NULL. -F writes the same figures as one JSON object.

func init() {
	register(&Format{Name: "cassowary", Priority: 40, Late: true, Detect: detectCassowary,
		Read: func(in *Input, sink model.Sink) error {
			in.R = &noTerminalCodes{r: in.R}
			return readReports(in, sink, cassowaryReports)
		}})
	register(&Format{Name: "cassowary-json", Priority: 40, Detect: detectCassowaryJSON, Read: readCassowaryJSON})
}

var cassowaryReports = &reportFormat{
	tool:  "cassowary",
	first: `"Starting Load Test with N requests using C concurrent users" or "TCP Connect.....: Avg/mean=…"`,
	begins: func(t string) bool {
		return cassowaryBanner.MatchString(t) || cassowaryPhase.MatchString(t)
	},
	read:     readCassowaryReport,
	settings: []string{"url", "requested_requests"},
	body:     func(t string) bool { return cassowarySummary.MatchString(t) },
}

var (
	cassowaryBanner   = regexp.MustCompile(`^Starting Load Test with (\d+) requests using (\d+) concurrent users$`)
	cassowaryPhase    = regexp.MustCompile(`^(TCP Connect|TLS Handshake|Server Processing|Content Transfer)\.+: Avg/mean=(\S*)\s+Median=(\S*)\s+p\(95\)=(\S*)$`)
	cassowarySummary  = regexp.MustCompile(`^(Total Req|Failed Req|DNS Lookup|Req/s)\.+: (\S*)$`)
	cassowaryProgress = regexp.MustCompile(`^\d+% [\[|]`)
)

func detectCassowary(head []byte) bool {
	head = stripTerminalCodes(head)
	phase := false
	return hasLine(head, func(t string) bool {
		phase = phase || cassowaryPhase.MatchString(t)
		return phase && strings.HasPrefix(t, "Total Req...")
	})
}

// cassowaryPhaseKeys are the label names of the phases.
var cassowaryPhaseKeys = map[string]string{"TCP Connect": "tcp_connect", "TLS Handshake": "tls_handshake",
	"Server Processing": "server_processing", "Content Transfer": "content_transfer"}

// cassowaryNoLatency is the warning every cassowary run carries.
const cassowaryNoLatency = "cassowary prints no latency of the whole request, only of its phases (TCP Connect, Server Processing, Content Transfer; labels *_mean_ms, *_median_ms, *_p95_ms): the latency columns are NULL"

// readCassowaryReport reads a report from its banner or its first phase
// line to its Req/s line.
func readCassowaryReport(l *Lines, _ model.Sink) (*model.Run, error) {
	l.Scan()
	r := &model.Run{Tool: "cassowary", Line: l.Line()}
	var warnings []string
	if m := cassowaryBanner.FindStringSubmatch(strings.TrimSpace(l.Text())); m != nil {
		runLabel(r, "requested_requests", m[1])
		n, _ := strconv.ParseInt(m[2], 10, 64)
		r.Connections = model.Some(n)
	} else {
		l.Unread()
	}
	phases, summary := false, false
	for l.Scan() {
		t := strings.TrimSpace(l.Text())
		switch {
		case t == "":
			continue
		case !phases && !summary && cassowaryProgress.MatchString(t):
			continue // the progress bar, and the run's wall time after it
		case !summary && cassowaryPhase.MatchString(t):
			m := cassowaryPhase.FindStringSubmatch(t)
			phases = true
			for i, stat := range []string{"mean", "median", "p95"} {
				key := cassowaryPhaseKeys[m[1]] + "_" + stat + "_ms"
				if w := cassowaryMS(r, key, m[i+2], l.Line(), m[1]); w != "" {
					warnings = append(warnings, w)
				}
			}
			continue
		case t == "Summary:" && !summary:
			summary = true
			continue
		case summary && cassowarySummary.MatchString(t):
			m := cassowarySummary.FindStringSubmatch(t)
			var err error
			switch m[1] {
			case "Total Req":
				n, perr := strconv.ParseInt(m[2], 10, 64)
				if perr != nil || n < 0 {
					err = fmt.Errorf("expected a count, found %q", clipQuote(m[2]))
				}
				r.Requests, r.Errors = model.Some(n), model.Some(int64(0))
			case "Failed Req":
				n, perr := strconv.ParseInt(m[2], 10, 64)
				if perr != nil || n < 0 {
					err = fmt.Errorf("expected a count, found %q", clipQuote(m[2]))
				}
				r.Non2xx = model.Some(n)
			case "DNS Lookup":
				if w := cassowaryMS(r, "dns_median_ms", m[2], l.Line(), "DNS Lookup"); w != "" {
					warnings = append(warnings, w)
				}
			case "Req/s":
				x, perr := strconv.ParseFloat(m[2], 64)
				if perr != nil || x < 0 {
					err = fmt.Errorf("expected a rate, found %q", clipQuote(m[2]))
				}
				r.RPS = model.Some(x)
			}
			if err != nil {
				return nil, l.Errorf(1, "cassowary %s: %v", m[1], err)
			}
			if m[1] != "Req/s" {
				continue
			}
			// The last line: the report ends after it.
		default:
			l.Unread()
		}
		break
	}
	if err := l.Err(); err != nil {
		return nil, err
	}
	if !r.Requests.Valid {
		return nil, Errorf(l.in.Name, l.Line()+1, 0, `cassowary report from line %d ends before its "Total Req" line`, r.Line)
	}
	if r.Non2xx.Valid && r.Non2xx.V <= r.Requests.V {
		r.Responses2xx = model.Some(r.Requests.V - r.Non2xx.V)
	}
	warnings = append(warnings, cassowaryNoLatency)
	runLabel(r, "warning", strings.Join(warnings, "; "))
	return r, nil
}

// cassowaryMS files a time printed in ms ("0.25ms") as a label, or
// returns the warning for a value cut inside its unit.
func cassowaryMS(r *model.Run, key, v string, line int, what string) string {
	num, ok := strings.CutSuffix(v, "ms")
	if _, err := strconv.ParseFloat(num, 64); !ok || err != nil {
		return cutValueWarning(line, "cassowary "+what, v)
	}
	runLabel(r, key, num)
	return ""
}

// cassowaryJSON is the object of cassowary -F (--json-metrics-file).
type cassowaryJSON struct {
	BaseURL           string       `json:"base_url"`
	TotalRequests     *int64       `json:"total_requests"`
	FailedRequests    *int64       `json:"failed_requests"`
	RequestsPerSecond *json.Number `json:"requests_per_second"`
	DNSMedian         *json.Number `json:"dns_median"`
}

func detectCassowaryJSON(head []byte) bool {
	return hasJSONKeys(head, "base_url", "total_requests", "failed_requests", "requests_per_second")
}

// readCassowaryJSON reads the -F object; its times are in ms.
func readCassowaryJSON(in *Input, sink model.Sink) error {
	var doc cassowaryJSON
	raw, line, err := readJSONDoc(in, &doc, "cassowary JSON")
	if err != nil {
		return err
	}
	var phases map[string]json.RawMessage
	_ = json.Unmarshal(raw, &phases)
	if doc.TotalRequests == nil || *doc.TotalRequests < 0 || doc.RequestsPerSecond == nil {
		return Errorf(in.Name, line, 0, "cassowary JSON: expected total_requests >= 0 and requests_per_second")
	}
	r := &model.Run{Tool: "cassowary", Line: line}
	r.Requests, r.Errors = model.Some(*doc.TotalRequests), model.Some(int64(0))
	rps, err := doc.RequestsPerSecond.Float64()
	if err != nil || rps < 0 {
		return Errorf(in.Name, line, 0, "cassowary JSON: requests_per_second: expected a rate, found %s", doc.RequestsPerSecond)
	}
	r.RPS = model.Some(rps)
	if f := doc.FailedRequests; f != nil && *f >= 0 && *f <= *doc.TotalRequests {
		r.Non2xx, r.Responses2xx = model.Some(*f), model.Some(*doc.TotalRequests-*f)
	}
	if doc.BaseURL != "" {
		runLabel(r, "url", doc.BaseURL)
	}
	if doc.DNSMedian != nil {
		runLabel(r, "dns_median_ms", doc.DNSMedian.String())
	}
	for _, p := range []string{"tcp_connect", "tls_handshake", "server_processing", "content_transfer"} {
		var st map[string]json.Number
		if json.Unmarshal(phases[p], &st) != nil {
			continue
		}
		for k, stat := range map[string]string{"mean": "mean", "median": "median", "95th_percentile": "p95"} {
			if v, ok := st[k]; ok {
				if _, err := v.Float64(); err != nil {
					return Errorf(in.Name, line, 0, "cassowary JSON: %s.%s: expected a number of ms, found %s", p, k, v)
				}
				runLabel(r, p+"_"+stat+"_ms", v.String())
			}
		}
	}
	runLabel(r, "warning", cassowaryNoLatency)
	return sink.Run(r)
}

package ingest

import (
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

// The factors a report gives. Every difference that tells two runs apart
// is a factor of the experiment unless something says it is a
// replicate: besides the labels a manifest or --label sets (label_keys),
// a report names what it measured, and runs that differ in it are never
// one figure. A run lists the labels of this kind it has in its
// report_keys label; the store's run_groups view makes each of them a
// factor wherever its values differ between runs that agree on every
// other factor (so that a setting the whole folder shares names no
// group), and every surface groups by run_groups.
//
// The report factors are:
//
//   - endpoint: the method, path and query of the URL the report names
//     ("GET /db/one?id=42"), from its url label (or ab's document path);
//   - target: the URL's host and port ("127.0.0.1:8081"), only where the
//     run has no server label: stacks that each listen on their own port
//     and are named by nothing else are told apart by it, while a server
//     that the manifest names and that was restarted on another port
//     stays one stack;
//   - the request name and type of a row of a report of several requests
//     (Locust, JMeter, Gatling);
//   - the settings the tool printed or that a command line above the
//     report gave (reportSettings);
//   - the heading path of a write-up (its levels that are no column).

// ReportKeysLabel is the label that lists, comma-separated and sorted,
// the labels of a run that its report gives and that tell experiments
// apart (see run_groups).
const ReportKeysLabel = "report_keys"

// reportSettings are the labels of the settings a report, or the command
// line above it, gives: the number of connections, threads and the
// target rate have columns of their own (factors in every case).
var reportSettings = []string{
	"endpoint", "target", "request_name", "request_type",
	"requested_duration", "requested_requests", "requests_planned",
	"keep_alive", "pipelining", "request_body", "http_version", "script", "script_args",
}

// deriveEndpoint sets the endpoint and target labels of a run from the
// URL its report names: the url label, or ab's host, port and document
// path, with the method where the report gives one.
func deriveEndpoint(r *model.Run) {
	if _, ok := r.Labels["endpoint"]; ok {
		return
	}
	var endpoint, target string
	if raw, ok := r.Labels["url"]; ok && raw != "" {
		endpoint, target = splitURL(raw)
	} else if p, ok := r.Labels["ab_document_path"]; ok {
		endpoint = p
		if h := r.Labels["ab_server_hostname"]; h != "" {
			target = h
			if port := r.Labels["ab_server_port"]; port != "" {
				target = net.JoinHostPort(h, port)
			}
		}
	}
	if endpoint == "" {
		return
	}
	if m := strings.ToUpper(strings.TrimSpace(r.Labels["method"])); m != "" {
		endpoint = m + " " + endpoint
	}
	runLabel(r, "endpoint", endpoint)
	if target != "" {
		runLabel(r, "target", target)
	}
}

// splitURL splits a URL as a report prints it into its path and query
// ("/" where it has no path) and its host and port (the scheme's port
// where it names none). Text that is no URL is its own endpoint.
func splitURL(raw string) (endpoint, target string) {
	s := strings.TrimSpace(raw)
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		if !strings.Contains(s, "://") {
			if v, err2 := url.Parse("http://" + s); err2 == nil && v.Host != "" && !strings.HasPrefix(s, "/") {
				u, err = v, nil
			}
		}
		if err != nil || u == nil || u.Host == "" {
			return s, ""
		}
	}
	endpoint = u.EscapedPath()
	if endpoint == "" {
		endpoint = "/"
	}
	if u.RawQuery != "" {
		endpoint += "?" + u.RawQuery
	}
	host, port := u.Hostname(), u.Port()
	if port == "" {
		switch u.Scheme {
		case "https", "wss":
			port = "443"
		default:
			port = "80"
		}
	}
	return endpoint, net.JoinHostPort(host, port)
}

// reportKeys lists the report factors a run has (see ReportKeysLabel):
// the reportSettings it has and the heading levels it was filed under,
// but for target on a run with a server, and for the labels the manifest
// sets (they are label_keys) or names as no factor.
func reportKeys(r *model.Run, d design, manifestKeys []string) []string {
	var keys []string
	for k := range r.Labels {
		if !slices.Contains(reportSettings, k) && !strings.HasPrefix(k, headingLevelPrefix) {
			continue
		}
		if k == "target" && r.Server != "" || slices.Contains(manifestKeys, k) || !d.factor(k) {
			continue
		}
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// headingLevelPrefix names the labels of the heading levels of a
// write-up that fill no column: heading.3 is the text of the nearest
// level-3 heading above a report.
const headingLevelPrefix = "heading."

// headingLevelLabel is the label of heading level n.
func headingLevelLabel(n int) string { return headingLevelPrefix + strconv.Itoa(n) }

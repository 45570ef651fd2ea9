package ingest

import (
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/mattn/go-shellwords"
)

// A command line pasted above a report: write-ups and logs print the load
// tool's command before its output ("$ wrk -t4 -c90 -d30s http://…",
// "ab -n 10000 -c 100 -k http://…", a sentence with the command in
// backticks). Its settings are labels of the report below it where the
// report does not print them itself; where it prints one that disagrees,
// the report's own value stands and the file gets a warning naming both
// lines.

// commandLine is a load tool's command found on a line.
type commandLine struct {
	line     int
	tool     string            // the command's name: wrk, ab, hey …
	settings map[string]string // label → value, see toolFlags
}

// A flagSpec says what one flag of a tool sets: the label it fills (a
// column label such as connections or a report setting), and how its
// value reads; a flag without a value sets the label to value.
type flagSpec struct {
	label string
	kind  flagKind
	value string // for flags that take no value
}

type flagKind int

const (
	flagCount    flagKind = iota // a whole number
	flagDuration                 // a duration: 30s, 2m, 500ms, or seconds
	flagText                     // any text
	flagSwitch                   // no value: sets value
	flagRate                     // a rate in requests per second
	flagIgnore                   // a flag with a value that sets nothing
)

// toolFlags are the flags of each load tool that set what wra stores, by
// the tools' own documentation. A tool's positional argument is its URL
// (k6 and vegeta excepted: a script and a target file).
var toolFlags = map[string]map[string]flagSpec{
	"wrk": {
		"-c": {label: "connections"}, "--connections": {label: "connections"},
		"-t": {label: "threads"}, "--threads": {label: "threads"},
		"-d": {label: "requested_duration", kind: flagDuration}, "--duration": {label: "requested_duration", kind: flagDuration},
		"-R": {label: "target_rps", kind: flagRate}, "--rate": {label: "target_rps", kind: flagRate},
		"-s": {label: "script", kind: flagText}, "--script": {label: "script", kind: flagText},
		"-H": {kind: flagIgnore}, "--header": {kind: flagIgnore}, "--timeout": {kind: flagIgnore},
		"--latency": {kind: flagSwitch}, "-L": {kind: flagSwitch}, "-U": {kind: flagSwitch}, "--u_latency": {kind: flagSwitch},
	},
	"ab": {
		"-n": {label: "requested_requests"}, "-c": {label: "connections"},
		"-t": {label: "requested_duration", kind: flagDuration},
		"-k": {label: "keep_alive", kind: flagSwitch, value: "true"},
		"-p": {label: "request_body", kind: flagText}, "-u": {label: "request_body", kind: flagText},
		"-m": {label: "method", kind: flagText}, "-i": {label: "method", kind: flagSwitch, value: "HEAD"},
		"-T": {kind: flagIgnore}, "-H": {kind: flagIgnore}, "-C": {kind: flagIgnore}, "-A": {kind: flagIgnore},
		"-P": {kind: flagIgnore}, "-X": {kind: flagIgnore}, "-e": {kind: flagIgnore}, "-g": {kind: flagIgnore},
		"-s": {kind: flagIgnore}, "-B": {kind: flagIgnore}, "-b": {kind: flagIgnore}, "-v": {kind: flagIgnore},
		"-l": {kind: flagSwitch}, "-r": {kind: flagSwitch}, "-d": {kind: flagSwitch}, "-S": {kind: flagSwitch}, "-q": {kind: flagSwitch},
	},
	"hey": {
		"-n": {label: "requested_requests"}, "-c": {label: "connections"},
		"-z": {label: "requested_duration", kind: flagDuration},
		"-q": {label: "rate_per_worker", kind: flagRate},
		"-m": {label: "method", kind: flagText},
		"-d": {label: "request_body", kind: flagText}, "-D": {label: "request_body", kind: flagText},
		"-disable-keepalive": {label: "keep_alive", kind: flagSwitch, value: "false"},
		"-H":                 {kind: flagIgnore}, "-T": {kind: flagIgnore}, "-a": {kind: flagIgnore}, "-x": {kind: flagIgnore},
		"-t": {kind: flagIgnore}, "-o": {kind: flagIgnore}, "-cpus": {kind: flagIgnore}, "-host": {kind: flagIgnore},
		"-h2":                  {label: "http_version", kind: flagSwitch, value: "2"},
		"-disable-compression": {kind: flagSwitch}, "-disable-redirects": {kind: flagSwitch},
	},
	"bombardier": {
		"-c": {label: "connections"}, "--connections": {label: "connections"},
		"-n": {label: "requested_requests"}, "--requests": {label: "requested_requests"},
		"-d": {label: "requested_duration", kind: flagDuration}, "--duration": {label: "requested_duration", kind: flagDuration},
		"-r": {label: "target_rps", kind: flagRate}, "--rate": {label: "target_rps", kind: flagRate},
		"-m": {label: "method", kind: flagText}, "--method": {label: "method", kind: flagText},
		"-b": {label: "request_body", kind: flagText}, "--body": {label: "request_body", kind: flagText},
		"-f": {label: "request_body", kind: flagText}, "--body-file": {label: "request_body", kind: flagText},
		"-H": {kind: flagIgnore}, "--header": {kind: flagIgnore}, "-t": {kind: flagIgnore}, "--timeout": {kind: flagIgnore},
		"-o": {kind: flagIgnore}, "--format": {kind: flagIgnore}, "-p": {kind: flagIgnore}, "--print": {kind: flagIgnore},
		"-l": {kind: flagSwitch}, "--latencies": {kind: flagSwitch}, "-k": {kind: flagSwitch}, "--insecure": {kind: flagSwitch},
		"--http1": {label: "http_version", kind: flagSwitch, value: "1.1"}, "--http2": {label: "http_version", kind: flagSwitch, value: "2"},
	},
	"oha": {
		"-n": {label: "requested_requests"}, "-c": {label: "connections"},
		"-z": {label: "requested_duration", kind: flagDuration},
		"-q": {label: "target_rps", kind: flagRate},
		"-m": {label: "method", kind: flagText}, "--method": {label: "method", kind: flagText},
		"-d": {label: "request_body", kind: flagText}, "-D": {label: "request_body", kind: flagText},
		"--disable-keepalive": {label: "keep_alive", kind: flagSwitch, value: "false"},
		"--http2":             {label: "http_version", kind: flagSwitch, value: "2"},
		"-H":                  {kind: flagIgnore}, "-t": {kind: flagIgnore}, "-p": {kind: flagIgnore}, "-o": {kind: flagIgnore},
		"--no-tui": {kind: flagSwitch}, "-j": {kind: flagSwitch}, "--json": {kind: flagSwitch}, "--latency-correction": {kind: flagSwitch},
	},
	"autocannon": {
		"-c": {label: "connections"}, "--connections": {label: "connections"},
		"-d": {label: "requested_duration", kind: flagDuration}, "--duration": {label: "requested_duration", kind: flagDuration},
		"-a": {label: "requested_requests"}, "--amount": {label: "requested_requests"},
		"-p": {label: "pipelining", kind: flagText}, "--pipelining": {label: "pipelining", kind: flagText},
		"-R": {label: "target_rps", kind: flagRate}, "--overallRate": {label: "target_rps", kind: flagRate},
		"-m": {label: "method", kind: flagText}, "--method": {label: "method", kind: flagText},
		"-b": {label: "request_body", kind: flagText}, "--body": {label: "request_body", kind: flagText},
		"-H": {kind: flagIgnore}, "--headers": {kind: flagIgnore}, "-w": {kind: flagIgnore}, "--workers": {kind: flagIgnore},
		"-j": {kind: flagSwitch}, "--json": {kind: flagSwitch}, "-l": {kind: flagSwitch}, "--latency": {kind: flagSwitch},
		"-n": {kind: flagSwitch}, "--no-progress": {kind: flagSwitch},
	},
	"h2load": {
		"-n": {label: "requested_requests"}, "--requests": {label: "requested_requests"},
		"-c": {label: "connections"}, "--clients": {label: "connections"},
		"-t": {label: "threads"}, "--threads": {label: "threads"},
		"-D": {label: "requested_duration", kind: flagDuration}, "--duration": {label: "requested_duration", kind: flagDuration},
		"-m": {label: "streams", kind: flagText}, "--max-concurrent-streams": {label: "streams", kind: flagText},
		"-H": {kind: flagIgnore}, "--header": {kind: flagIgnore}, "--h1": {label: "http_version", kind: flagSwitch, value: "1.1"},
	},
	"k6": {
		"-u": {label: "connections"}, "--vus": {label: "connections"},
		"-d": {label: "requested_duration", kind: flagDuration}, "--duration": {label: "requested_duration", kind: flagDuration},
		"-i": {label: "requested_requests"}, "--iterations": {label: "requested_requests"},
		"-e": {kind: flagIgnore}, "--env": {kind: flagIgnore}, "-o": {kind: flagIgnore}, "--out": {kind: flagIgnore},
		"--summary-export": {kind: flagIgnore}, "--summary-trend-stats": {kind: flagIgnore}, "--summary-time-unit": {kind: flagIgnore},
		"-q": {kind: flagSwitch}, "--quiet": {kind: flagSwitch},
	},
	"vegeta": {
		"-rate": {label: "target_rps", kind: flagRate}, "--rate": {label: "target_rps", kind: flagRate},
		"-duration": {label: "requested_duration", kind: flagDuration}, "--duration": {label: "requested_duration", kind: flagDuration},
		"-connections": {kind: flagIgnore}, "-workers": {kind: flagIgnore}, "-targets": {kind: flagIgnore}, "-timeout": {kind: flagIgnore},
		"-output": {kind: flagIgnore}, "-header": {kind: flagIgnore}, "-body": {label: "request_body", kind: flagText},
		"-type": {kind: flagIgnore}, "-every": {kind: flagIgnore}, "-max-workers": {kind: flagIgnore},
	},
	"siege": {
		"-c": {label: "connections"}, "--concurrent": {label: "connections"},
		"-t": {label: "requested_duration", kind: flagDuration}, "--time": {label: "requested_duration", kind: flagDuration},
		"-r": {label: "repetitions", kind: flagText}, "--reps": {label: "repetitions", kind: flagText},
		"-b": {kind: flagSwitch}, "--benchmark": {kind: flagSwitch}, "-v": {kind: flagSwitch}, "-q": {kind: flagSwitch},
		"-H": {kind: flagIgnore}, "--header": {kind: flagIgnore}, "-f": {kind: flagIgnore}, "-d": {kind: flagIgnore},
	},
}

// commandNames maps the names a tool is run by to its toolFlags entry.
var commandNames = map[string]string{"wrk": "wrk", "wrk2": "wrk", "ab": "ab", "ab2": "ab", "hey": "hey", "bombardier": "bombardier",
	"oha": "oha", "autocannon": "autocannon", "h2load": "h2load", "k6": "k6", "vegeta": "vegeta", "siege": "siege"}

// findCommand finds a load tool's command on a line outside any report:
// a shell prompt line ("$ wrk …", "# ab …", "❯ hey …", "PS C:\> …"), a bare
// command, or a command in backticks inside a sentence. It returns false
// where the line holds none, or only a tool's name without any setting or
// URL (a sentence that names a tool).
func findCommand(t string, line int) (commandLine, bool) {
	var spans []string
	if strings.Count(t, "`") >= 2 {
		parts := strings.Split(t, "`")
		for i := 1; i < len(parts); i += 2 {
			spans = append(spans, parts[i])
		}
	}
	spans = append(spans, t)
	// a prompt with the user, host and folder before it:
	// "steve@joy:~/tool/wrk$ wrk -t4 …", "root@box:/# ab …"
	for _, p := range []string{"$ ", "# ", "> ", "❯ ", "% "} {
		if i := strings.Index(t, p); i > 0 {
			spans = append(spans, t[i+len(p):])
		}
	}
	for _, s := range spans {
		if c, ok := parseCommand(s); ok {
			c.line = line
			return c, true
		}
	}
	return commandLine{}, false
}

// parseCommand reads a command line whose first word (after a prompt,
// environment assignments, sudo, npx, time …) is a load tool.
func parseCommand(s string) (commandLine, bool) {
	s = strings.TrimSpace(s)
	for _, p := range []string{"$ ", "# ", "❯ ", "> ", "% ", "➜ "} {
		s = strings.TrimPrefix(s, p)
	}
	if strings.HasPrefix(s, "PS ") {
		if i := strings.Index(s, "> "); i > 0 {
			s = s[i+2:]
		}
	}
	// a pipeline's load tool: "echo GET … | vegeta attack … | vegeta report"
	var words []string
	for _, seg := range strings.Split(s, "|") {
		w, err := shellwords.Parse(strings.TrimSpace(seg))
		if err != nil || len(w) == 0 {
			continue
		}
		w = skipWrappers(w)
		if len(w) == 0 {
			continue
		}
		name := commandNames[strings.TrimSuffix(path.Base(strings.ReplaceAll(w[0], `\`, "/")), ".exe")]
		if name == "" {
			continue
		}
		if name == "vegeta" && (len(w) < 2 || w[1] != "attack") {
			continue
		}
		if name == "k6" && (len(w) < 2 || w[1] != "run") {
			continue
		}
		words = w
		break
	}
	if len(words) == 0 {
		return commandLine{}, false
	}
	name := commandNames[strings.TrimSuffix(path.Base(strings.ReplaceAll(words[0], `\`, "/")), ".exe")]
	args := words[1:]
	if name == "vegeta" || name == "k6" {
		args = args[1:] // attack, run
	}
	c := commandLine{tool: name, settings: map[string]string{}}
	flags := toolFlags[name]
	known := 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			// the rest are the arguments of the tool's script (wrk -s
			// pipeline.lua -- / 16): a setting as given
			if rest := strings.Join(args[i+1:], " "); rest != "" {
				c.settings["script_args"] = rest
			}
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			switch {
			case strings.Contains(a, "://") || strings.HasPrefix(a, "localhost:") || strings.HasPrefix(a, "127.0.0.1:"):
				c.settings["url"] = a
				known++
			case name == "k6" && strings.HasSuffix(a, ".js"):
				c.settings["script"] = a
				known++
			}
			continue
		}
		key, val, hasVal := strings.Cut(a, "=")
		spec, ok := flags[key]
		if !ok && !hasVal && !strings.HasPrefix(a, "--") && len(a) > 2 {
			// a value glued to a one-letter flag: -c100, -d30s, -t4
			if s2, ok2 := flags[a[:2]]; ok2 && s2.kind != flagSwitch {
				spec, key, val, hasVal, ok = s2, a[:2], a[2:], true, true
			}
		}
		if !ok {
			// a flag wra does not know (--fasthttp, a newer version's):
			// nothing it stores, and no reason to doubt the line
			continue
		}
		if spec.kind == flagSwitch {
			if spec.label != "" {
				c.settings[spec.label] = spec.value
			}
			known++
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return commandLine{}, false
			}
			i++
			val = args[i]
		}
		known++
		if spec.label == "" || spec.kind == flagIgnore {
			continue
		}
		v, ok := flagValue(spec.kind, val)
		if !ok {
			return commandLine{}, false
		}
		c.settings[spec.label] = v
	}
	if known == 0 {
		return commandLine{}, false
	}
	if q, ok := c.settings["rate_per_worker"]; ok {
		// hey's -q is per worker: the rate is q × c
		delete(c.settings, "rate_per_worker")
		if n, ok := c.settings["connections"]; ok {
			qf, _ := strconv.ParseFloat(q, 64)
			nf, _ := strconv.ParseFloat(n, 64)
			c.settings["target_rps"] = fmtLabelNum(qf * nf)
		}
	}
	return c, true
}

// skipWrappers drops what runs a command rather than being it: variable
// assignments, sudo, time, nice, taskset and its CPU list, npx.
func skipWrappers(w []string) []string {
	for len(w) > 0 {
		switch {
		case strings.Contains(w[0], "=") && !strings.HasPrefix(w[0], "-"):
			w = w[1:]
		case w[0] == "sudo" || w[0] == "time" || w[0] == "nice" || w[0] == "npx" || w[0] == "exec" || w[0] == "command":
			w = w[1:]
		case w[0] == "taskset" && len(w) > 2:
			w = w[2:]
			if w[0] == "-c" && len(w) > 2 {
				w = w[2:]
			}
		default:
			return w
		}
	}
	return w
}

// flagValue reads a flag's value: counts and rates as numbers, a duration
// as the seconds it lasts.
func flagValue(k flagKind, v string) (string, bool) {
	switch k {
	case flagCount:
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return "", false
		}
		return strconv.FormatInt(n, 10), true
	case flagRate:
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 0 {
			return "", false
		}
		return fmtLabelNum(f), true
	case flagDuration:
		s, ok := durationSeconds(v)
		if !ok {
			return "", false
		}
		return fmtLabelNum(s) + "s", true
	}
	return v, true
}

// durationSeconds reads a tool's duration: Go's syntax (30s, 1m30s,
// 500ms), wrk's (30s, 2m, 1h), or a bare number of seconds.
func durationSeconds(v string) (float64, bool) {
	if f, err := strconv.ParseFloat(v, 64); err == nil && f >= 0 {
		return f, true
	}
	if d, err := time.ParseDuration(v); err == nil && d >= 0 {
		return d.Seconds(), true
	}
	return 0, false
}

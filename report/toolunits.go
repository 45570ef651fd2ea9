package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A quantity is what a figure measures, known from its name: a time, a
// size in bytes, or a count (anything else), and the unit of its column
// as a power of the base (seconds: of 10; bytes: of 2), so that a factor
// between two units is exact (10^3, not 1e-3 / 1e-6).
type quantity struct {
	kind quantityKind
	exp  int
}

// scale is 10^e for a time, 2^e for a size, 1 for a count.
func (k quantityKind) scale(e int) float64 {
	switch k {
	case timeQuantity:
		return math.Pow10(e)
	case bytesQuantity:
		return math.Ldexp(1, e)
	}
	return 1
}

// toBase converts the figure's column to seconds or bytes.
func (q quantity) toBase() float64 { return q.kind.scale(q.exp) }

type quantityKind int

const (
	countQuantity quantityKind = iota
	timeQuantity
	bytesQuantity
)

func (k quantityKind) String() string {
	switch k {
	case timeQuantity:
		return "a time"
	case bytesQuantity:
		return "a size in bytes"
	}
	return "a count"
}

// unitWords are the words of a figure's name that give its unit: what
// it measures and its power of seconds or bytes. wra's _mb are MiB
// (docs/store.md), as _mib.
var unitWords = []struct {
	word string
	q    quantity
}{
	{"us", quantity{timeQuantity, -6}},
	{"ms", quantity{timeQuantity, -3}},
	{"s", quantity{timeQuantity, 0}},
	{"bytes", quantity{bytesQuantity, 0}},
	{"kib", quantity{bytesQuantity, 10}},
	{"mb", quantity{bytesQuantity, 20}},
	{"mib", quantity{bytesQuantity, 20}},
	{"gib", quantity{bytesQuantity, 30}},
}

// unitAt is the unit of the i-th word of a name split at "_", if it names
// one: "s" after "per" is a rate (bytes_per_s), not a time.
func unitAt(words []string, i int) (quantity, bool) {
	if words[i] == "s" && i > 0 && words[i-1] == "per" {
		return quantity{}, false
	}
	for _, u := range unitWords {
		if u.word == words[i] {
			return u.q, true
		}
	}
	return quantity{}, false
}

// figureQuantity reads a figure's quantity from the unit in its name, the
// last of its words that names one (unitWords): latency_p99_ms is a time
// in ms, cpu_server_us_per_req one in µs, startup_s one in seconds,
// reported_transfer_bytes_per_s_p99 a size in bytes, working_set_mb one
// in MiB, rps a count.
func figureQuantity(name string) quantity {
	words := strings.Split(name, "_")
	for i := len(words) - 1; i >= 0; i-- {
		if q, ok := unitAt(words, i); ok {
			return q
		}
	}
	return quantity{countQuantity, 0}
}

// A Conversion is a column a figure asked for in another unit may be read
// from, and the factor its values are multiplied by.
type Conversion struct {
	Column string
	Factor float64
}

// Conversions are the columns the figure name may be read from in another
// unit of the same quantity, nearest the name's end first: each word of
// the name that names a unit (unitWords) replaced by another of its kind.
// latency_mean_s reads latency_mean_ms × 1e-3, reported_transfer_mib_per_s
// reported_transfer_bytes_per_s / 2^20.
func Conversions(name string) []Conversion {
	words := strings.Split(name, "_")
	var out []Conversion
	for i := len(words) - 1; i >= 0; i-- {
		want, ok := unitAt(words, i)
		if !ok {
			continue
		}
		for _, u := range unitWords {
			if u.q.kind != want.kind || u.word == words[i] {
				continue
			}
			src := slices.Clone(words)
			src[i] = u.word
			out = append(out, Conversion{strings.Join(src, "_"), want.kind.scale(u.q.exp - want.exp)})
		}
	}
	return out
}

// A toolUnits prints a figure as a load tool prints it in its report: in
// the unit its magnitude picks, with the tool's digits, so that a table
// can show a figure as the author pasted it from the tool ("774.30us",
// "2.36ms", "167.83MB", "1.028ms"). Each function takes seconds or bytes;
// a nil one is a quantity the tool does not print in units.
type toolUnits struct {
	name               string
	time, bytes, count func(float64) string
}

// of is the tool's print of a quantity, nil where it has none.
func (u toolUnits) of(k quantityKind) func(float64) string {
	switch k {
	case timeQuantity:
		return u.time
	case bytesQuantity:
		return u.bytes
	}
	return u.count
}

// toolStyles are the tools whose units a format may name, in the order
// the docs give them, each after its source: wrk's src/units.c (wrk2's is
// the same), bombardier's format.go, k6's end-of-test summary
// (humanizeGenericDuration, humanizeBytes) and vegeta's text report
// (lib/reporters.go, round).
var toolStyles = []toolUnits{
	{name: "wrk", time: wrkTime, bytes: wrkBytes, count: wrkCount},
	{name: "bombardier", time: bombardierTime, bytes: bombardierBytes},
	{name: "k6", time: k6Time, bytes: k6Bytes},
	{name: "vegeta", time: vegetaTime},
}

// toolStyle is the tool named so, if a format may name it.
func toolStyle(name string) (toolUnits, bool) {
	for _, u := range toolStyles {
		if u.name == name {
			return u, true
		}
	}
	return toolUnits{}, false
}

// toolStyleNames are toolStyles' names, for an error.
func toolStyleNames() string {
	var names []string
	for _, u := range toolStyles {
		names = append(names, u.name)
	}
	return strings.Join(names, ", ")
}

// unitLadder is a base unit and the larger ones, each scale times the
// one before. As wrk and bombardier do, an amount moves to the next unit
// from 0.85 of its scale (850us prints as 0.85ms); reachable is how many
// of units the amount may move to (wrk never reaches its last).
type unitLadder struct {
	scale     float64
	base      string
	units     []string
	reachable int
}

func (l unitLadder) format(amt float64) string {
	unit := l.base
	for i := 0; i < l.reachable && amt >= l.scale*0.85; i++ {
		amt /= l.scale
		unit = l.units[i]
	}
	return strconv.FormatFloat(amt, 'f', 2, 64) + unit
}

var (
	// wrk: format_time_us, format_binary and format_metric; its loop
	// stops before a ladder's last unit.
	wrkTimeUs  = unitLadder{1000, "us", []string{"ms", "s"}, 1}
	wrkTimeS   = unitLadder{60, "s", []string{"m", "h"}, 1}
	wrkBinary  = unitLadder{1024, "", []string{"K", "M", "G", "T", "P"}, 4}
	wrkMetric  = unitLadder{1000, "", []string{"k", "M", "G", "T", "P"}, 4}
	bombTimeUs = unitLadder{1000, "us", []string{"ms", "s"}, 2}
	bombTimeS  = unitLadder{60, "s", []string{"m", "h"}, 2}
	bombBinary = unitLadder{1024, "", []string{"KB", "MB", "GB", "TB", "PB"}, 5}
)

// timeLadder is format_time_us of wrk and bombardier: microseconds below
// a second, seconds from one.
func timeLadder(s float64, us, secs unitLadder) string {
	if n := s * 1e6; n < 1e6 {
		return us.format(n)
	}
	return secs.format(s)
}

func wrkTime(s float64) string        { return timeLadder(s, wrkTimeUs, wrkTimeS) }
func bombardierTime(s float64) string { return timeLadder(s, bombTimeUs, bombTimeS) }

// wrkBytes is wrk's Transfer/sec figure: format_binary and a "B".
func wrkBytes(b float64) string        { return wrkBinary.format(b) + "B" }
func wrkCount(n float64) string        { return wrkMetric.format(n) }
func bombardierBytes(b float64) string { return bombBinary.format(b) }

// k6Time is k6's summary of a time (humanizeGenericDuration, of ms): ns,
// µs and ms cut, not rounded, to two decimals with trailing zeros dropped;
// from a second, "1.5s", and from a minute "2m5s" and "1h2m5s" in whole
// seconds.
func k6Time(s float64) string {
	ms := s * 1e3
	switch {
	case ms == 0:
		return "0s"
	case ms < 0.001:
		return strconv.FormatFloat(math.Trunc(ms*1e6), 'f', -1, 64) + "ns"
	case ms < 1:
		return k6Cut(ms*1000, 2) + "µs"
	case ms < 1000:
		return k6Cut(ms, 2) + "ms"
	}
	decimals := 2
	if ms > 60000 {
		decimals = 0
	}
	out := k6Cut(math.Mod(ms, 60000)/1000, decimals) + "s"
	minutes := math.Trunc(ms / 60000)
	if minutes < 1 {
		return out
	}
	out = strconv.FormatFloat(math.Mod(minutes, 60), 'f', -1, 64) + "m" + out
	if hours := math.Trunc(minutes / 60); hours >= 1 {
		out = strconv.FormatFloat(hours, 'f', -1, 64) + "h" + out
	}
	return out
}

// k6Cut is k6's toFixedNoTrailingZerosTrunc: x cut to p decimals, as
// JavaScript computes Math.trunc(10^p x) / 10^p, and printed without
// trailing zeros.
func k6Cut(x float64, p int) string {
	mult := math.Pow(10, float64(p))
	x = math.Trunc(mult*x) / mult
	s := strconv.FormatFloat(x, 'f', p, 64)
	v, _ := strconv.ParseFloat(s, 64)
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// k6Bytes is k6's humanizeBytes: SI units, one decimal below 10 of a
// unit, none from 10, rounded half up.
func k6Bytes(b float64) string {
	if b < 10 {
		return strconv.FormatFloat(b, 'f', -1, 64) + " B"
	}
	units := []string{"B", "kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"}
	e := int(math.Floor(math.Log(b) / math.Log(1000)))
	e = min(e, len(units)-1)
	v := math.Floor(b/math.Pow(1000, float64(e))*10+0.5) / 10
	decimals := 0
	if v < 10 {
		decimals = 1
	}
	return strconv.FormatFloat(v, 'f', decimals, 64) + " " + units[e]
}

// vegetaUnits are the units vegeta rounds a time by: to the unit below
// the largest it reaches.
var vegetaUnits = []time.Duration{time.Hour, time.Minute, time.Second, time.Millisecond, time.Microsecond, time.Nanosecond}

// vegetaTime is a time as vegeta's text report prints it: the whole
// nanoseconds, rounded to the unit below the largest they reach (1.028ms,
// 579.427µs, 1.042s, 1m0s), as Go prints a time.Duration.
func vegetaTime(s float64) string {
	d := time.Duration(math.Round(s * 1e9))
	for i, unit := range vegetaUnits[:len(vegetaUnits)-1] {
		if d >= unit {
			d = d.Round(vegetaUnits[i+1])
			break
		}
	}
	return d.String()
}

// ForFigure binds f to the figure it prints: a tool's units (wrk, …)
// need to know what the figure measures and in which unit its column is
// (figureQuantity). It fails where the tool prints no such quantity in
// units: bombardier, k6 and vegeta print counts as plain numbers, and
// vegeta bytes too.
func (f NumberFormat) ForFigure(name string) (NumberFormat, error) {
	if f.Tool == "" {
		return f, nil
	}
	q := figureQuantity(name)
	if u, _ := toolStyle(f.Tool); u.of(q.kind) == nil {
		return f, &SpecError{Spec: f.Spec, Msg: fmt.Sprintf("%s prints no %s in units: %s is %s (a time ends in _s, _ms or _us, a size in bytes, _kib, _mb, _mib or _gib)",
			f.Tool, strings.TrimPrefix(q.kind.String(), "a "), name, q.kind)}
	}
	f.quantity, f.bound = q, true
	return f, nil
}

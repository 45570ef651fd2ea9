package cost

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// A price book is a TOML file with one table per provider:
//
//	[provider.example-vps]
//	name          = "Example VPS"    # optional, defaults to the key
//	region        = "eu-1"           # optional
//	arch          = "x86_64"         # optional
//	vcpu_hour_usd = 0.0035
//	gib_hour_usd  = 0.0009           # or gb_hour_usd (per 10^9 bytes), not both
//	as_of         = 2026-11-01       # optional, a TOML date or "YYYY-MM-DD"
//	source_url    = "https://example.com/prices"  # optional
//
// A table whose key is a preset's key replaces that preset.

// BookError is a problem in a price book, with the position of the key it
// concerns where the TOML decoder knows it (Line and Col are 0 otherwise).
type BookError struct {
	File      string
	Line, Col int
	Key       string // dotted TOML key, e.g. provider.x.vcpu_hour_usd
	Msg       string
}

func (e *BookError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Col > 0 {
			fmt.Fprintf(&b, ":%d", e.Col)
		}
	}
	b.WriteString(": ")
	if e.Key != "" {
		b.WriteString(e.Key)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

var bookKeys = []string{"name", "region", "arch", "vcpu_hour_usd", "gib_hour_usd", "gb_hour_usd", "as_of", "source_url"}

// tableCheck validates the shape of one [provider.KEY] table: known keys,
// required keys present, one memory price. Decoding through it makes the
// TOML decoder attach the table's position to the error.
type tableCheck struct{}

func (tableCheck) UnmarshalTOML(data any) error {
	t, ok := data.(map[string]any)
	if !ok {
		return fmt.Errorf("must be a table [provider.KEY], got %s", article(tomlTypeName(data)))
	}
	keys := make([]string, 0, len(t))
	for k := range t {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.Contains(bookKeys, k) {
			return fmt.Errorf("unknown key %q; a provider table holds %s", k, strings.Join(bookKeys, ", "))
		}
	}
	if _, ok := t["vcpu_hour_usd"]; !ok {
		return errors.New("missing vcpu_hour_usd (US dollars per vCPU-hour)")
	}
	_, gib := t["gib_hour_usd"]
	_, gb := t["gb_hour_usd"]
	switch {
	case gib && gb:
		return errors.New("give gib_hour_usd (per 2^30 bytes) or gb_hour_usd (per 10^9 bytes), not both")
	case !gib && !gb:
		return errors.New("missing gib_hour_usd (US dollars per GiB-hour, GiB = 2^30 bytes) or gb_hour_usd (per GB-hour, GB = 10^9 bytes)")
	}
	return nil
}

// usd is a price field: a finite TOML number >= 0.
type usd struct {
	v   float64
	set bool
}

func (u *usd) UnmarshalTOML(data any) error {
	var v float64
	switch x := data.(type) {
	case float64:
		v = x
	case int64:
		v = float64(x)
	default:
		return fmt.Errorf("must be a number of US dollars, got %s", article(tomlTypeName(data)))
	}
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return fmt.Errorf("must be a finite number >= 0, got %v", v)
	}
	u.v, u.set = v, true
	return nil
}

// date is the as_of field: a TOML local date or a "YYYY-MM-DD" string.
type date string

func (d *date) UnmarshalTOML(data any) error {
	switch x := data.(type) {
	case time.Time:
		if x.Location().String() != "date-local" {
			return fmt.Errorf("must be a date like 2026-11-29, got the date-time %s", x.Format(time.RFC3339Nano))
		}
		*d = date(x.Format(time.DateOnly))
	case string:
		t, err := time.Parse(time.DateOnly, x)
		if err != nil {
			return fmt.Errorf("must be a date like 2026-11-29, got %q", x)
		}
		*d = date(t.Format(time.DateOnly))
	default:
		return fmt.Errorf("must be a date like 2026-11-29, got %s", article(tomlTypeName(data)))
	}
	return nil
}

// text is a string field that must be a TOML string.
type text string

func (s *text) UnmarshalTOML(data any) error {
	x, ok := data.(string)
	if !ok {
		return fmt.Errorf("must be a string, got %s", article(tomlTypeName(data)))
	}
	*s = text(x)
	return nil
}

type bookEntry struct {
	Name        text `toml:"name"`
	Region      text `toml:"region"`
	Arch        text `toml:"arch"`
	VCPUHourUSD usd  `toml:"vcpu_hour_usd"`
	GiBHourUSD  usd  `toml:"gib_hour_usd"`
	GBHourUSD   usd  `toml:"gb_hour_usd"`
	AsOf        date `toml:"as_of"`
	SourceURL   text `toml:"source_url"`
}

// ParseBook reads a price book. file names the book in errors and in each
// price's Origin. The prices come back in key order. Every error is a
// *BookError.
func ParseBook(file string, data []byte) ([]Price, error) {
	// First pass: syntax, and provider must be a table.
	var raw map[string]any
	if _, err := toml.Decode(string(data), &raw); err != nil {
		return nil, bookError(file, err)
	}
	if v, ok := raw["provider"]; ok {
		if _, ok := v.(map[string]any); !ok {
			return nil, &BookError{File: file, Key: "provider", Msg: "must hold tables [provider.KEY], not " + article(tomlTypeName(v))}
		}
	}
	// Second pass: the shape of each table, positioned at its header.
	var shape struct {
		Provider map[string]tableCheck `toml:"provider"`
	}
	md, err := toml.Decode(string(data), &shape)
	if err != nil {
		return nil, bookError(file, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		return nil, &BookError{File: file, Key: und[0].String(), Msg: "unknown key; a price book holds only [provider.KEY] tables"}
	}
	if len(shape.Provider) == 0 {
		return nil, &BookError{File: file, Msg: "no [provider.KEY] table"}
	}
	// Third pass: the values, positioned at each key.
	var book struct {
		Provider map[string]bookEntry `toml:"provider"`
	}
	if _, err := toml.Decode(string(data), &book); err != nil {
		return nil, bookError(file, err)
	}
	keys := make([]string, 0, len(book.Provider))
	for k := range book.Provider {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	prices := make([]Price, 0, len(keys))
	for _, k := range keys {
		e := book.Provider[k]
		p := Price{
			Provider:    k,
			Name:        string(e.Name),
			Region:      string(e.Region),
			Arch:        string(e.Arch),
			VCPUHourUSD: e.VCPUHourUSD.v,
			AsOf:        string(e.AsOf),
			SourceURL:   string(e.SourceURL),
			Origin:      file,
		}
		if p.Name == "" {
			p.Name = k
		}
		if e.GBHourUSD.set {
			p.MemHourUSD, p.MemUnit = e.GBHourUSD.v, GB
		} else {
			p.MemHourUSD, p.MemUnit = e.GiBHourUSD.v, GiB
		}
		if err := p.Validate(); err != nil {
			return nil, &BookError{File: file, Key: "provider." + k, Msg: err.Error()}
		}
		prices = append(prices, p)
	}
	return prices, nil
}

// bookError turns a TOML decoder error into a *BookError with its position.
func bookError(file string, err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return &BookError{File: file, Line: pe.Position.Line, Col: pe.Position.Col, Key: pe.LastKey, Msg: pe.Message}
	}
	return &BookError{File: file, Msg: err.Error()}
}

func tomlTypeName(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case int64:
		return "integer"
	case float64:
		return "float"
	case bool:
		return "boolean"
	case time.Time:
		return "date-time"
	case []any, []map[string]any:
		return "array"
	case map[string]any:
		return "table"
	}
	return fmt.Sprintf("%T", v)
}

// article prefixes a type name with "a" or "an".
func article(s string) string {
	if s != "" && strings.ContainsRune("aeiou", rune(s[0])) {
		return "an " + s
	}
	return "a " + s
}

package main

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// pflagInvalid is how pflag reports a flag value it cannot parse:
// `invalid argument "abc" for "--alpha" flag: strconv.ParseFloat: …`.
var pflagInvalid = regexp.MustCompile(`^invalid argument (".*") for "(?:-\w, )?--([\w-]+)" flag: `)

// flagExpects says what a flag of each type takes.
var flagExpects = map[string]string{
	"float64":  "a number, such as 0.05 or 1000",
	"float32":  "a number, such as 0.05 or 1000",
	"int":      "a whole number",
	"int64":    "a whole number",
	"uint":     "a whole number",
	"count":    "a whole number",
	"duration": "a duration, such as 500ms, 30s or 2m",
	"bool":     "true or false",
}

// flagError is a usage error for a flag cobra could not parse, in words
// that say what the flag expected instead of the parser's (Go's strconv
// and time packages name themselves in theirs).
func flagError(c *cobra.Command, err error) error {
	m := pflagInvalid.FindStringSubmatch(err.Error())
	if m == nil {
		return usageError{err}
	}
	var f *pflag.Flag
	if f = c.Flags().Lookup(m[2]); f == nil {
		f = c.InheritedFlags().Lookup(m[2])
	}
	if f == nil {
		return usageError{err}
	}
	want, ok := flagExpects[f.Value.Type()]
	if !ok {
		// A flag of its own type says what it wants; leave out the
		// parser's name before the first colon.
		rest := strings.TrimPrefix(err.Error(), m[0])
		if i := strings.Index(rest, ": "); i >= 0 && !strings.Contains(rest[:i], " ") {
			rest = rest[i+2:]
		}
		return usagef("--%s %s: %s", m[2], m[1], rest)
	}
	return usageError{fmt.Errorf("--%s %s: expected %s", m[2], m[1], want)}
}

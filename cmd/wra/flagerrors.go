package main

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

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
// and time packages name themselves in theirs): pflag's
// *InvalidValueError names the flag and the value.
func flagError(c *cobra.Command, err error) error {
	var iv *pflag.InvalidValueError
	if !errors.As(err, &iv) {
		return usageError{err}
	}
	f, value := iv.GetFlag(), strconv.Quote(iv.GetValue())
	want, ok := flagExpects[f.Value.Type()]
	if !ok {
		// A flag of its own type says what it wants.
		return usagef("--%s %s: %s", f.Name, value, userMessage(iv.Unwrap()))
	}
	return usageError{fmt.Errorf("--%s %s: expected %s", f.Name, value, want)}
}

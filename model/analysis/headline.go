package analysis

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// A finding's headline says its effect, its size and where, in at most
// MaxHeadline characters; its text beneath gives the evidence (the
// tests, p-values, rows and runs).
const MaxHeadline = 120

// headlineNames is how many subjects (servers, loads) a headline names
// before it counts the rest.
const headlineNames = 2

// few joins the first headlineNames items and counts the rest: "a, b
// and 3 more"; all of them when there are no more than headlineNames+1.
func few(items []string) string {
	if len(items) <= headlineNames+1 {
		return joinAnd(items)
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:headlineNames], ", "), len(items)-headlineNames)
}

// fit bounds a headline to MaxHeadline characters: one longer (long
// names, chosen by the user) is cut at a word and ends with "…"; its
// text still says everything.
func fit(s string) string {
	if utf8.RuneCountInString(s) <= MaxHeadline {
		return s
	}
	rs := []rune(s)[:MaxHeadline-1]
	cut := string(rs)
	if i := strings.LastIndexByte(cut, ' '); i > MaxHeadline/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:(") + "…"
}

// distinct is items without repeats, in their first order.
func distinct(items []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, it := range items {
		if !seen[it] {
			seen[it] = true
			out = append(out, it)
		}
	}
	return out
}

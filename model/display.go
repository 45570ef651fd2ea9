package model

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// DisplayLabel is the label in which a run keeps how people read the
// values of labels: the JSON text of a Display, as the manifest's
// [labels.<key>] tables give it. It is no factor: runs are grouped by
// the values, never by their names.
const DisplayLabel = "label_display"

// LabelDisplay is how people read the values of one label: a display
// name per value and the order in which tables, legends and the summary
// list the values, and the label's own heading (Title). Values without a
// name are shown as they are; values not in Order follow those that are.
type LabelDisplay struct {
	Title string            `json:"title,omitempty" toml:"title"`
	Order []string          `json:"order,omitempty" toml:"order"`
	Names map[string]string `json:"names,omitempty" toml:"names"`
}

// Display is the LabelDisplay of each label (server, test, …).
type Display map[string]LabelDisplay

// ParseDisplay reads the JSON text of a Display (a run's DisplayLabel);
// empty text is no display.
func ParseDisplay(text string) (Display, error) {
	if text == "" {
		return nil, nil
	}
	var d Display
	if err := json.Unmarshal([]byte(text), &d); err != nil {
		return nil, fmt.Errorf("label %s %q: expected a JSON object of {\"order\": [...], \"names\": {...}} per label", DisplayLabel, text)
	}
	return d, nil
}

// JSON is the text of d as a run keeps it: keys sorted, the same from run
// to run.
func (d Display) JSON() string {
	b, _ := json.Marshal(d) // maps of strings and lists of strings always marshal
	return string(b)
}

// Name is the display name of a label's value: its name in the manifest,
// or the value itself.
func (d Display) Name(key, value string) string {
	if n, ok := d[key].Names[value]; ok && n != "" {
		return n
	}
	return value
}

// Position is the place of a value in its label's order (from 0), and
// false when the manifest gives the label no order or the value no place
// in it.
func (d Display) Position(key, value string) (int, bool) {
	i := slices.Index(d[key].Order, value)
	return i, i >= 0
}

// Heading is a label's own name for people: its Title, or the key.
func (d Display) Heading(key string) string {
	if t := d[key].Title; t != "" {
		return t
	}
	return key
}

// Ordered reports whether the manifest orders the values of a label.
func (d Display) Ordered(key string) bool { return len(d[key].Order) > 0 }

// Compare orders two values of a label as its order lists them: listed
// values first, in the order's order; 0 for two values it does not list,
// so that a stable sort keeps them as they were.
func (d Display) Compare(key, a, b string) int {
	pa, oka := d.Position(key, a)
	pb, okb := d.Position(key, b)
	switch {
	case oka && okb:
		return pa - pb
	case oka:
		return -1
	case okb:
		return 1
	}
	return 0
}

// Merge adds the labels of o that d lacks, and for a label both have,
// o's names of values d does not name; d's order stands.
func (d Display) Merge(o Display) Display {
	if d == nil && len(o) > 0 {
		d = Display{}
	}
	for k, lo := range o {
		ld, ok := d[k]
		if !ok {
			d[k] = LabelDisplay{Title: lo.Title, Order: slices.Clone(lo.Order), Names: maps.Clone(lo.Names)}
			continue
		}
		if len(ld.Order) == 0 {
			ld.Order = slices.Clone(lo.Order)
		}
		if ld.Title == "" {
			ld.Title = lo.Title
		}
		for v, n := range lo.Names {
			if _, named := ld.Names[v]; !named {
				if ld.Names == nil {
					ld.Names = map[string]string{}
				}
				ld.Names[v] = n
			}
		}
		d[k] = ld
	}
	return d
}

// MergeDisplays merges the displays of some runs (the texts of their
// DisplayLabel), each text once, in the order of the texts, so that the
// same runs always give the same display.
func MergeDisplays(texts []string) (Display, error) {
	texts = slices.Clone(texts)
	slices.Sort(texts)
	var out Display
	for _, t := range slices.Compact(texts) {
		d, err := ParseDisplay(t)
		if err != nil {
			return nil, err
		}
		out = out.Merge(d)
	}
	return out, nil
}

// Splitting is the rule of never pooling what the labels tell apart: of
// the candidate labels, those on which two of n runs that share a cell
// (the same cell(i)) disagree (value(i, label), "" when unset), in the
// candidates' order. wra table's layouts and wra analyze's tables split
// by it.
func Splitting(n int, candidates []string, cell func(i int) string, value func(i int, label string) string) []string {
	var out []string
	for _, k := range candidates {
		seen := map[string]string{}
		for i := 0; i < n; i++ {
			c, v := cell(i), value(i, k)
			if prev, ok := seen[c]; ok && prev != v {
				out = append(out, k)
				break
			}
			seen[c] = v
		}
	}
	return out
}

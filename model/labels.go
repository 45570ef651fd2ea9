package model

import (
	"fmt"
	"sort"
	"strconv"
)

// LabelKeys are the labels that have a column of their own in runs; every
// other label is kept in the labels column.
var LabelKeys = []string{"server", "database", "test", "round", "connections", "threads", "target_rps", "duration_s"}

// SetLabel sets the column named by a known label key, parsing its value,
// or files the label under Labels.
func (r *Run) SetLabel(key, value string) error {
	switch key {
	case "server":
		r.Server = value
	case "database":
		r.Database = value
	case "test":
		r.Test = value
	case "round", "connections", "threads":
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			return fmt.Errorf("label %s=%q: want a whole number", key, value)
		}
		switch key {
		case "round":
			r.Round = Some(n)
		case "connections":
			r.Connections = Some(n)
		default:
			r.Threads = Some(n)
		}
	case "target_rps", "duration_s":
		f, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return fmt.Errorf("label %s=%q: want a number", key, value)
		}
		if key == "target_rps" {
			r.TargetRPS = Some(f)
		} else {
			r.DurationS = Some(f)
		}
	default:
		if r.Labels == nil {
			r.Labels = make(map[string]string)
		}
		r.Labels[key] = value
	}
	return nil
}

// Label returns the value of a label, whether it has a column or not, and
// whether it is set.
func (r *Run) Label(key string) (string, bool) {
	switch key {
	case "server":
		return r.Server, r.Server != ""
	case "database":
		return r.Database, r.Database != ""
	case "test":
		return r.Test, r.Test != ""
	case "round":
		return fmtInt(r.Round)
	case "connections":
		return fmtInt(r.Connections)
	case "threads":
		return fmtInt(r.Threads)
	case "target_rps":
		return fmtFloat(r.TargetRPS)
	case "duration_s":
		return fmtFloat(r.DurationS)
	}
	v, ok := r.Labels[key]
	return v, ok
}

func fmtInt(o Opt[int64]) (string, bool) {
	if !o.Valid {
		return "", false
	}
	return strconv.FormatInt(o.V, 10), true
}

func fmtFloat(o Opt[float64]) (string, bool) {
	if !o.Valid {
		return "", false
	}
	return strconv.FormatFloat(o.V, 'f', -1, 64), true
}

// SortedKeys returns the keys of a label map in order, for deterministic
// output.
func SortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

package store

import (
	"context"
	"database/sql"
	"fmt"
	"reflect"
	"sync"
	"time"
)

// Rows are read by the names of their columns, never their positions: a
// reader's query names each column as the field of the struct it fills
// (`db:"name"` tags), or, for a row of names known only as the query is
// built, reads its values by name (namedRow).

// scanAll runs query and scans each row into a T by column name: every
// column must fill a field of T tagged with its name (a column no field
// takes is an error, so that a query and its struct cannot drift apart);
// a field no column fills keeps its zero value. what names the rows in
// an error. Each fix, where given, completes a row after it is scanned
// (a figure made of others).
func scanAll[T any](ctx context.Context, s *Store, what, query string, args []any, fix ...func(*T)) ([]T, error) {
	var out []T
	var plan []fieldPlan
	_, err := s.each(ctx, query, args, func(row []any) error {
		var v T
		rv := reflect.ValueOf(&v).Elem()
		for i, p := range plan {
			p.set(rv.FieldByIndex(p.index), row[i])
		}
		for _, f := range fix {
			f(&v)
		}
		out = append(out, v)
		return nil
	}, func(cols []Column) error {
		var err error
		plan, err = planFields(reflect.TypeFor[T](), cols)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", what, err)
	}
	return out, nil
}

// fieldPlan is where one column goes: the field's index and how its
// value is read.
type fieldPlan struct {
	index []int
	set   func(f reflect.Value, v any)
}

var plans sync.Map // reflect.Type → map[string]fieldOf

// fieldOf is a tagged field of a struct.
type fieldOf struct {
	index []int
	typ   reflect.Type
}

// fieldsOf are the fields of t by their db tags.
func fieldsOf(t reflect.Type) map[string]fieldOf {
	if m, ok := plans.Load(t); ok {
		return m.(map[string]fieldOf)
	}
	m := map[string]fieldOf{}
	for _, f := range reflect.VisibleFields(t) {
		if name, ok := f.Tag.Lookup("db"); ok && name != "-" {
			m[name] = fieldOf{index: f.Index, typ: f.Type}
		}
	}
	plans.Store(t, m)
	return m
}

// planFields matches the columns of a result to the fields of t.
func planFields(t reflect.Type, cols []Column) ([]fieldPlan, error) {
	fields := fieldsOf(t)
	plan := make([]fieldPlan, len(cols))
	for i, c := range cols {
		f, ok := fields[c.Name]
		if !ok {
			return nil, fmt.Errorf("column %q fills no field of %s", c.Name, t)
		}
		set, err := setterOf(f.typ)
		if err != nil {
			return nil, fmt.Errorf("column %q: %w", c.Name, err)
		}
		plan[i] = fieldPlan{index: f.index, set: set}
	}
	return plan, nil
}

var (
	typeTime    = reflect.TypeFor[time.Time]()
	typeStrings = reflect.TypeFor[[]string]()
	typeInts    = reflect.TypeFor[[]int64]()
	typeMap     = reflect.TypeFor[map[string]string]()
)

// setterOf reads a value as Value gives it into a field of type t: text
// "" for NULL, numbers NaN (floats) or 0 (integers) for NULL, lists and
// JSON objects of text from their JSON text.
func setterOf(t reflect.Type) (func(reflect.Value, any), error) {
	switch {
	case t == typeTime:
		return func(f reflect.Value, v any) { f.Set(reflect.ValueOf(timeOf(v))) }, nil
	case t == typeStrings:
		return func(f reflect.Value, v any) { f.Set(reflect.ValueOf(texts(v))) }, nil
	case t == typeInts:
		return func(f reflect.Value, v any) { f.Set(reflect.ValueOf(integers(v))) }, nil
	case t == typeMap:
		return func(f reflect.Value, v any) { f.Set(reflect.ValueOf(splitLabels(Text(v)))) }, nil
	}
	switch t.Kind() {
	case reflect.String:
		return func(f reflect.Value, v any) { f.SetString(Text(v)) }, nil
	case reflect.Float64:
		return func(f reflect.Value, v any) { f.SetFloat(Float(v)) }, nil
	case reflect.Int64, reflect.Int:
		return func(f reflect.Value, v any) { f.SetInt(integer(v)) }, nil
	case reflect.Bool:
		return func(f reflect.Value, v any) { f.SetBool(Bool(v)) }, nil
	}
	return nil, fmt.Errorf("a field of type %s cannot be read from a column", t)
}

// namedRow is a row read by the names of its columns.
type namedRow struct {
	cols map[string]int
	vals []any
}

// get is the value of the column named; a column the query does not
// have is a mistake of the caller's, which panics.
func (r namedRow) get(name string) any {
	i, ok := r.cols[name]
	if !ok {
		panic("store: the query has no column " + name)
	}
	return r.vals[i]
}

func (r namedRow) text(name string) string   { return Text(r.get(name)) }
func (r namedRow) float(name string) float64 { return Float(r.get(name)) }
func (r namedRow) int(name string) int64     { return integer(r.get(name)) }
func (r namedRow) bool(name string) bool     { return Bool(r.get(name)) }

// eachNamed runs query and hands each row to fn, read by name.
func (s *Store) eachNamed(ctx context.Context, query string, args []any, fn func(namedRow) error) error {
	var cols map[string]int
	_, err := s.each(ctx, query, args, func(vals []any) error {
		return fn(namedRow{cols: cols, vals: vals})
	}, func(cs []Column) error {
		cols = make(map[string]int, len(cs))
		for i, c := range cs {
			if _, dup := cols[c.Name]; dup {
				return fmt.Errorf("the query names two columns %q", c.Name)
			}
			cols[c.Name] = i
		}
		return nil
	})
	return err
}

// scalar runs a query of one row and one column and gives its value;
// no row gives sql.ErrNoRows.
func (s *Store) scalar(ctx context.Context, query string, args ...any) (any, error) {
	var out any
	found := false
	err := s.eachNamed(ctx, query, args, func(r namedRow) error {
		if !found {
			if len(r.cols) != 1 {
				return fmt.Errorf("a query of one value gives %d columns", len(r.cols))
			}
			for name := range r.cols {
				out, found = r.get(name), true
			}
		}
		return nil
	})
	if err == nil && !found {
		err = sql.ErrNoRows
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

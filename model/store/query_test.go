package store

import (
	"context"
	"encoding/json"
	"math"
	"reflect"
	"testing"
	"time"
)

// TestQueryTypes checks the one typing of every value the store gives
// back: integers of every width as int64 where they fit, and as their
// exact decimal text where they do not; DECIMAL as its exact text;
// nothing rounded through float64.
func TestQueryTypes(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	tab, err := s.Query(ctx, `SELECT
		1::TINYINT, 2::SMALLINT, 3::INTEGER, 4::BIGINT, 5::UTINYINT, 6::UINTEGER,
		1016566::HUGEINT,
		9007199254740993::HUGEINT,
		-170141183460469231731687303715884105727::HUGEINT,
		18446744073709551615::UBIGINT,
		340282366920938463463374607431768211455::UHUGEINT,
		12.340::DECIMAL(10,3),
		123456789012345678.9::DECIMAL(38,1),
		0.5::FLOAT, 0.1::DOUBLE,
		'x', true, NULL::HUGEINT, NULL::DECIMAL(5,2),
		TIMESTAMP '2026-11-29 18:56:57',
		[1, 2], {'a': 1}`)
	if err != nil {
		t.Fatal(err)
	}
	want := []any{
		int64(1), int64(2), int64(3), int64(4), int64(5), int64(6),
		int64(1016566),
		int64(9007199254740993),
		json.Number("-170141183460469231731687303715884105727"),
		json.Number("18446744073709551615"),
		json.Number("340282366920938463463374607431768211455"),
		json.Number("12.34"),
		json.Number("123456789012345678.9"),
		0.5, 0.1,
		"x", true, nil, nil,
		time.Date(2026, 11, 29, 18, 56, 57, 0, time.UTC),
		"[1,2]", `{"a":1}`,
	}
	if len(tab.Rows) != 1 {
		t.Fatalf("%d rows", len(tab.Rows))
	}
	for i, w := range want {
		if got := tab.Rows[0][i]; !reflect.DeepEqual(got, w) {
			t.Errorf("column %d (%s): %#v (%T), want %#v (%T)", i+1, tab.Columns[i].Type, got, got, w, w)
		}
	}
	if typ := tab.Columns[6].Type; typ != "HUGEINT" {
		t.Errorf("type of column 7: %q, want HUGEINT", typ)
	}
}

// TestQuerySumIsExact: the sum of a BIGINT column is a HUGEINT; beyond
// 2^53 it must come back as the exact integer, not a rounded double.
func TestQuerySumIsExact(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	tab, err := s.Query(ctx, `SELECT sum(x) FROM (VALUES (9223372036854775807::BIGINT), (9223372036854775807::BIGINT), (3::BIGINT)) v(x)`)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := tab.Rows[0][0], json.Number("18446744073709551617"); got != want {
		t.Errorf("sum: %#v, want %#v", got, want)
	}
	if f := Float(tab.Rows[0][0]); f != 18446744073709551617.0 {
		t.Errorf("Float: %v", f)
	}
	if !math.IsNaN(Float(nil)) || !math.IsNaN(Float("x")) {
		t.Error("Float of NULL or text should be NaN")
	}
}

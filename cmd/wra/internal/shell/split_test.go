package shell

import (
	"reflect"
	"testing"
)

func TestSplitter(t *testing.T) {
	type step struct {
		line    string
		stmts   []string
		history string
	}
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"one line", []step{{"SELECT 1;", []string{"SELECT 1;"}, "SELECT 1;"}}},
		{"two lines", []step{{"SELECT 1 AS a,", nil, ""}, {"  2 AS b;", []string{"SELECT 1 AS a,\n  2 AS b;"}, "SELECT 1 AS a, 2 AS b;"}}},
		{"two on a line", []step{{"SELECT 1; SELECT 2;", []string{"SELECT 1;", "SELECT 2;"}, "SELECT 1; SELECT 2;"}}},
		{"rest goes on", []step{{"SELECT 1; SELECT", []string{"SELECT 1;"}, "SELECT 1;"}, {"2;", []string{"SELECT\n2;"}, "SELECT 2;"}}},
		{"semicolon in a string", []step{{"SELECT 'a;b'", nil, ""}, {";", []string{"SELECT 'a;b'\n;"}, "SELECT 'a;b' ;"}}},
		{"doubled quote", []step{{"SELECT 'it''s;';", []string{"SELECT 'it''s;';"}, "SELECT 'it''s;';"}}},
		{"semicolon in a name", []step{{`SELECT 1 AS "x;y";`, []string{`SELECT 1 AS "x;y";`}, `SELECT 1 AS "x;y";`}}},
		{"string over lines", []step{{"SELECT 'a", nil, ""}, {"b;';", []string{"SELECT 'a\nb;';"}, "SELECT 'a b;';"}}},
		{"line comment", []step{{"SELECT 1 -- one; two", nil, ""}, {", 2;", []string{"SELECT 1 -- one; two\n, 2;"}, "SELECT 1 , 2;"}}},
		{"comment after", []step{{"SELECT 1; -- done", []string{"SELECT 1;"}, "SELECT 1;"}, {"SELECT 2;", []string{"SELECT 2;"}, "SELECT 2;"}}},
		{"block comment", []step{{"SELECT /* a; */ 1", nil, ""}, {"/* ; */;", []string{"SELECT /* a; */ 1\n/* ; */;"}, "SELECT /* a; */ 1 /* ; */;"}}},
		{"empty statements", []step{{";;", nil, ""}, {"SELECT 3;", []string{"SELECT 3;"}, "SELECT 3;"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s splitter
			for i, st := range tc.steps {
				stmts, h := s.add(st.line)
				if !reflect.DeepEqual(stmts, st.stmts) || h != st.history {
					t.Fatalf("line %d %q: got %q, history %q; want %q, history %q", i+1, st.line, stmts, h, st.stmts, st.history)
				}
			}
			if !s.empty() {
				t.Errorf("left over: %q", s.buf.String())
			}
		})
	}
}

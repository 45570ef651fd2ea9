package store

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
)

// Relation is a table, a view or a macro of the store, as DuckDB's
// catalog describes it.
type Relation struct {
	Name string
	// Kind is "table", "view", "macro" (a scalar macro) or "table macro".
	Kind string
	// Comment is the relation's COMMENT ON text, "" when none.
	Comment string
	// Columns of a table or a view, in order; nil for a macro.
	Columns []RelationColumn
	// Params are a macro's parameters, in order.
	Params []string
	// SQL is the statement that makes the relation.
	SQL string
}

// RelationColumn is a column of a table or a view.
type RelationColumn struct {
	Name, Type, Comment string
}

// Relations lists the store's tables, then its views, then its macros,
// each kind by name, with their columns or parameters.
func (s *Store) Relations(ctx context.Context) ([]Relation, error) {
	var out []Relation
	err := s.eachNamed(ctx, `SELECT table_name AS name, 'table' AS kind, comment, sql FROM duckdb_tables()
			WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal
		UNION ALL
		SELECT view_name, 'view', comment, sql FROM duckdb_views()
			WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal`, nil, func(row namedRow) error {
		out = append(out, Relation{Name: row.text("name"), Kind: row.text("kind"), Comment: row.text("comment"), SQL: row.text("sql")})
		return nil
	})
	if err != nil {
		return nil, err
	}
	cols := map[string][]RelationColumn{}
	err = s.eachNamed(ctx, `SELECT table_name, column_name, data_type, comment FROM duckdb_columns()
		WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal
		ORDER BY table_name, column_index`, nil, func(row namedRow) error {
		t := row.text("table_name")
		cols[t] = append(cols[t], RelationColumn{Name: row.text("column_name"), Type: row.text("data_type"), Comment: row.text("comment")})
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i].Columns = cols[out[i].Name]
	}
	err = s.eachNamed(ctx, `SELECT function_name, CASE function_type WHEN 'table_macro' THEN 'table macro' ELSE 'macro' END AS kind,
			comment, parameters::VARCHAR[] AS parameters, macro_definition
		FROM duckdb_functions()
		WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal
			AND function_type IN ('macro', 'table_macro')`, nil, func(row namedRow) error {
		r := Relation{Name: row.text("function_name"), Kind: row.text("kind"), Comment: row.text("comment")}
		r.Params = textList(row.get("parameters"))
		r.SQL = "CREATE MACRO " + r.Name + "(" + strings.Join(r.Params, ", ") + ") AS " + macroBody(r.Kind, row.text("macro_definition")) + ";"
		out = append(out, r)
		return nil
	})
	if err != nil {
		return nil, err
	}
	rank := map[string]int{"table": 0, "view": 1, "macro": 2, "table macro": 2}
	sort.SliceStable(out, func(i, j int) bool {
		if rank[out[i].Kind] != rank[out[j].Kind] {
			return rank[out[i].Kind] < rank[out[j].Kind]
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}

// macroBody is a macro's definition as CREATE MACRO takes it.
func macroBody(kind, def string) string {
	if kind == "table macro" {
		return "TABLE " + def
	}
	return def
}

// textList is a LIST of VARCHAR as Value gives it: its JSON text.
func textList(v any) []string {
	var out []string
	json.Unmarshal([]byte(Text(v)), &out)
	return out
}

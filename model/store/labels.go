package store

import "context"

// LabelKeys lists the keys of the runs' labels column (the labels that
// have no column of their own), sorted.
func (s *Store) LabelKeys(ctx context.Context) ([]string, error) {
	return s.texts(ctx, `SELECT DISTINCT unnest(json_keys(labels)) AS v FROM runs WHERE labels IS NOT NULL ORDER BY 1`)
}

// LabelValues lists the values a label takes in runs, sorted: label is a
// column of model.CompareByColumns or a key of the labels column.
func (s *Store) LabelValues(ctx context.Context, label string) ([]string, error) {
	col, args, err := labelValue(label)
	if err != nil {
		return nil, err
	}
	return s.texts(ctx, `SELECT DISTINCT v FROM (SELECT `+col+` AS v FROM runs r) WHERE v IS NOT NULL ORDER BY 1`, args...)
}

// texts reads a query's one column of text, named v.
func (s *Store) texts(ctx context.Context, query string, args ...any) ([]string, error) {
	return column[string](ctx, s, "runs", query, args)
}

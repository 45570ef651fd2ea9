package store

import (
	"context"

	"github.com/wra-bench/wra/model"
)

// LabelDisplay reads how people read the values of labels: the display
// (model.DisplayLabel) the manifests of the ingested folders gave their
// runs, merged in the order of its text, so the same store always gives
// the same display.
func (s *Store) LabelDisplay(ctx context.Context) (model.Display, error) {
	texts, err := column[string](ctx, s, "runs", `SELECT DISTINCT labels->>'`+model.DisplayLabel+`' AS v FROM runs WHERE v IS NOT NULL ORDER BY 1`, nil)
	if err != nil {
		return nil, err
	}
	return model.MergeDisplays(texts)
}

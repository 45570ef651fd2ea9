package store

import (
	"strings"

	"github.com/wra-bench/wra/model"
)

// DefaultInsertSQL is the statement BulkSamples runs without the read
// options wra adds to DuckDB's defaults: the benchmark's DuckDB anchor.
func DefaultInsertSQL(in *model.BulkInput) (string, error) {
	q, err := bulkInsertSQL(in)
	return strings.Replace(q, csvReadOptions, "", 1), err
}

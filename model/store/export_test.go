package store

// BulkInsertSQL is the statement BulkSamples runs, for the benchmark's
// DuckDB anchor.
var BulkInsertSQL = bulkInsertSQL

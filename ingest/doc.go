// Package ingest turns the raw records of web-server benchmarks into model
// values. It holds one reader per input format, the detection of a file's
// format from its content, the wra.toml labels manifest, and the folder
// walker that hands each file to a store whole or not at all: alone, or
// with others of its kind in one transaction (small reports in batches,
// k6 point streams in groups that the store scans at once), loaded again
// one by one when the transaction fails.
//
// Readers are streaming scanners: they read their input once, keep memory
// bounded, and report a malformed input as a *SyntaxError that names the
// file, the line and column, what was expected and what was found. The
// package knows nothing of SQL; it writes through model.Sink.
package ingest

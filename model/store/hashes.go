package store

import (
	"context"
)

// IngestedHashes returns the SHA-256 of every ingested source, in one
// query: the walker reads them once per ingest instead of asking per file.
func (s *Store) IngestedHashes(ctx context.Context) (map[string]string, error) {
	out := map[string]string{}
	err := s.eachNamed(ctx, `SELECT source, source_sha256 FROM ingested_files`, nil, func(row namedRow) error {
		out[row.text("source")] = row.text("source_sha256")
		return nil
	})
	return out, err
}

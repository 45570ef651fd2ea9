package store

import (
	"context"
)

// IngestedHashes returns the SHA-256 of every ingested source, in one
// query: the walker reads them once per ingest instead of asking per file.
func (s *Store) IngestedHashes(ctx context.Context) (map[string]string, error) {
	out := map[string]string{}
	_, err := s.each(ctx, `SELECT source, source_sha256 FROM ingested_files`, nil, func(row []any) error {
		out[Text(row[0])] = Text(row[1])
		return nil
	})
	return out, err
}

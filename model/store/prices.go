package store

import (
	"context"
	"database/sql"
	"fmt"
)

// PriceRow is one row of the prices table: what a vCPU-hour and a GiB-hour
// (2^30 bytes) cost with one provider, with the date and the page the
// price comes from.
type PriceRow struct {
	Provider    string
	Region      string
	Arch        string
	VCPUHourUSD float64
	GiBHourUSD  float64
	AsOf        string // YYYY-MM-DD, or empty when unknown
	SourceURL   string
}

// PutPrices writes prices into the prices table in one transaction; a row
// whose provider is already there replaces it.
func (s *Store) PutPrices(ctx context.Context, rows []PriceRow) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, r := range rows {
		if _, err := tx.ExecContext(ctx,
			`INSERT OR REPLACE INTO prices (provider, region, arch, vcpu_hour_usd, gib_hour_usd, as_of, source_url)
			 VALUES (?, ?, ?, ?, ?, CAST(? AS DATE), ?)`,
			r.Provider, nullString(r.Region), nullString(r.Arch), r.VCPUHourUSD, r.GiBHourUSD,
			nullString(r.AsOf), nullString(r.SourceURL)); err != nil {
			return fmt.Errorf("prices: provider %q: %w", r.Provider, err)
		}
	}
	return tx.Commit()
}

func nullString(s string) sql.NullString {
	return sql.NullString{String: s, Valid: s != ""}
}

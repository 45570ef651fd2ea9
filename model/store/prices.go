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
	Provider    string  `db:"provider"`
	Region      string  `db:"region"`
	Arch        string  `db:"arch"`
	VCPUHourUSD float64 `db:"vcpu_hour_usd"`
	GiBHourUSD  float64 `db:"gib_hour_usd"`
	AsOf        string  `db:"as_of"` // YYYY-MM-DD, or empty when unknown
	SourceURL   string  `db:"source_url"`
}

// PutPrices writes prices into the prices table in one transaction; a row
// whose provider is already there replaces it. Rows the table already
// holds as they are are not written again, so that a store whose prices
// are current is left as it is, byte for byte.
func (s *Store) PutPrices(ctx context.Context, rows []PriceRow) error {
	have := map[PriceRow]bool{}
	rows0, err := scanAll[PriceRow](ctx, s, "prices", `SELECT provider, coalesce(region, '') AS region, coalesce(arch, '') AS arch, vcpu_hour_usd, gib_hour_usd,
       coalesce(strftime(as_of, '%Y-%m-%d'), '') AS as_of, coalesce(source_url, '') AS source_url FROM prices`, nil)
	if err != nil {
		return err
	}
	for _, r := range rows0 {
		have[r] = true
	}
	var todo []PriceRow
	for _, r := range rows {
		if !have[r] {
			todo = append(todo, r)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, r := range todo {
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

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
// whose provider is already there replaces it. Rows the table already
// holds as they are are not written again, so that a store whose prices
// are current is left as it is, byte for byte.
func (s *Store) PutPrices(ctx context.Context, rows []PriceRow) error {
	have := map[PriceRow]bool{}
	if _, err := readAll(ctx, s, "prices", `SELECT provider, coalesce(region, ''), coalesce(arch, ''), vcpu_hour_usd, gib_hour_usd,
       coalesce(strftime(as_of, '%Y-%m-%d'), ''), coalesce(source_url, '') FROM prices`, nil, func(r []any) bool {
		have[PriceRow{Provider: Text(r[0]), Region: Text(r[1]), Arch: Text(r[2]), VCPUHourUSD: Float(r[3]), GiBHourUSD: Float(r[4]),
			AsOf: Text(r[5]), SourceURL: Text(r[6])}] = true
		return true
	}); err != nil {
		return err
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

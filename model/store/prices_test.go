package store

import (
	"context"
	"testing"
)

func TestPutPrices(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	rows := []PriceRow{
		{Provider: "a", Region: "r", Arch: "x86_64", VCPUHourUSD: 0.04048, GiBHourUSD: 0.004772782407680001, AsOf: "2026-11-29", SourceURL: "https://example.com/a"},
		{Provider: "b", VCPUHourUSD: 0.01, GiBHourUSD: 0.001},
	}
	if err := s.PutPrices(ctx, rows); err != nil {
		t.Fatal(err)
	}
	// Writing again replaces by provider instead of failing on the key.
	rows[1].VCPUHourUSD = 0.02
	if err := s.PutPrices(ctx, rows); err != nil {
		t.Fatal(err)
	}
	type got struct {
		provider           string
		region, arch, asOf *string
		vcpu, gib          float64
		source             *string
	}
	q, err := s.db.QueryContext(ctx, `SELECT provider, region, arch, vcpu_hour_usd, gib_hour_usd, strftime(as_of, '%Y-%m-%d'), source_url FROM prices ORDER BY provider`)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	var all []got
	for q.Next() {
		var g got
		if err := q.Scan(&g.provider, &g.region, &g.arch, &g.vcpu, &g.gib, &g.asOf, &g.source); err != nil {
			t.Fatal(err)
		}
		all = append(all, g)
	}
	if len(all) != 2 {
		t.Fatalf("%d rows, want 2", len(all))
	}
	a, b := all[0], all[1]
	if a.provider != "a" || *a.region != "r" || *a.arch != "x86_64" || a.vcpu != 0.04048 || a.gib != 0.004772782407680001 ||
		*a.asOf != "2026-11-29" || *a.source != "https://example.com/a" {
		t.Errorf("row a: %+v", a)
	}
	if b.provider != "b" || b.region != nil || b.arch != nil || b.asOf != nil || b.source != nil || b.vcpu != 0.02 {
		t.Errorf("row b: %+v (empty strings must be NULL, the second write must replace)", b)
	}
	if err := s.PutPrices(ctx, []PriceRow{{Provider: "c", AsOf: "yesterday"}}); err == nil {
		t.Error("a bad date was stored")
	}
	if n := count(t, s, "SELECT count(*) FROM prices WHERE provider = 'c'"); n != 0 {
		t.Errorf("a failed write left %d rows", n)
	}
}

package cost

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"testing"
)

func TestUnitConversions(t *testing.T) {
	// 1 GiB = 2^30 bytes = 1.073741824 × 10^9 bytes, so a GiB-hour costs
	// 1.073741824 GB-hours. The decimal products are exact:
	//   0.004445 × 1.073741824 = 0.00477278240768
	//   0.00356  × 1.073741824 = 0.00382252089344
	//   1        × 1.073741824 = 1.073741824
	tests := []struct {
		perGB  float64
		perGiB string
	}{
		{0.004445, "0.00477278240768"},
		{0.00356, "0.00382252089344"},
		{1, "1.073741824"},
		{0, "0"},
	}
	for _, tc := range tests {
		got := GiBPriceFromGB(tc.perGB)
		want, _ := strconv.ParseFloat(tc.perGiB, 64)
		// One rounding of the exact quotient of the float inputs: at most
		// one unit in the last place from the float of the decimal product.
		if math.Abs(got-want) > math.Abs(math.Nextafter(want, math.Inf(1))-want) {
			t.Errorf("GiBPriceFromGB(%v) = %v, want %s", tc.perGB, got, tc.perGiB)
		}
		back := GBPriceFromGiB(got)
		if math.Abs(back-tc.perGB) > 2*math.Abs(math.Nextafter(tc.perGB, math.Inf(1))-tc.perGB) {
			t.Errorf("round trip of %v gave %v", tc.perGB, back)
		}
	}
	if BytesPerGiB != 1073741824 || BytesPerGB != 1000000000 || HoursPerMonth != 730 {
		t.Error("unit constants changed")
	}
}

func TestPresets(t *testing.T) {
	type row struct {
		key          string
		vcpu, mem    float64
		unit         MemUnit
		gibHour      float64
		region, arch string
	}
	want := []row{
		{"aws-fargate-x86", 0.04048, 0.004445, GB, 0.004445 * 1.073741824, "us-east-1", "x86_64"},
		{"aws-fargate-arm64", 0.03238, 0.00356, GB, 0.00356 * 1.073741824, "us-east-1", "arm64"},
		{"gcp-cloud-run", 0.0648, 0.0072, GiB, 0.0072, "us-central1", "x86_64"},
		{"gcp-n2", 0.031611, 0.004237, GiB, 0.004237, "us-central1", "x86_64"},
		{"gcp-e2", 0.021811, 0.002923, GiB, 0.002923, "us-central1", "x86_64"},
	}
	got := Presets()
	if len(got) != len(want) {
		t.Fatalf("%d presets, want %d", len(got), len(want))
	}
	for i, w := range want {
		p := got[i]
		if p.Provider != w.key || p.VCPUHourUSD != w.vcpu || p.MemHourUSD != w.mem || p.MemUnit != w.unit ||
			p.Region != w.region || p.Arch != w.arch {
			t.Errorf("preset %d = %+v, want %+v", i, p, w)
		}
		if !close(p.GiBHourUSD(), w.gibHour, 1e-15) {
			t.Errorf("%s GiB-hour = %v, want %v", p.Provider, p.GiBHourUSD(), w.gibHour)
		}
		if p.AsOf == "" || p.SourceURL == "" || p.Name == "" || p.Origin != "preset" {
			t.Errorf("%s lacks its name, date or source: %+v", p.Provider, p)
		}
		if err := p.Validate(); err != nil {
			t.Errorf("%s: %v", p.Provider, err)
		}
	}
	// Cloud Run publishes per second: $0.000018 per vCPU-second, $0.000002 per GiB-second.
	cr := got[2]
	if !close(cr.VCPUHourUSD/3600, 0.000018, 1e-12) || !close(cr.GiBHourUSD()/3600, 0.000002, 1e-12) {
		t.Errorf("Cloud Run per-second prices: %v %v", cr.VCPUHourUSD/3600, cr.GiBHourUSD()/3600)
	}
}

func TestLookupAndResolve(t *testing.T) {
	b := NewBook()
	_, err := b.Lookup("azure")
	var ue *UnknownProviderError
	if !errors.As(err, &ue) {
		t.Fatalf("error %v is not an *UnknownProviderError", err)
	}
	if want := `unknown provider "azure"; known providers: aws-fargate-x86, aws-fargate-arm64, gcp-cloud-run, gcp-n2, gcp-e2`; err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}

	p, err := b.Resolve("", nil, nil)
	if err != nil || p.Provider != DefaultProvider {
		t.Errorf("default: %+v, %v", p, err)
	}
	p, err = b.Resolve("gcp-e2", ptr(0.05), nil)
	if err != nil || p.Provider != "gcp-e2" || p.VCPUHourUSD != 0.05 || p.GiBHourUSD() != 0.002923 ||
		p.Origin != "preset, vCPU price from the command line" {
		t.Errorf("vCPU override: %+v, %v", p, err)
	}
	// A GiB override of a GB-priced preset replaces the unit too.
	p, err = b.Resolve("aws-fargate-x86", nil, ptr(0.004445))
	if err != nil || p.MemUnit != GiB || p.GiBHourUSD() != 0.004445 || p.VCPUHourUSD != 0.04048 {
		t.Errorf("memory override: %+v, %v", p, err)
	}
	p, err = b.Resolve("", ptr(0.04048), ptr(0.004445))
	if err != nil || p.Provider != "custom" || p.Origin != "command line" || p.GiBHourUSD() != 0.004445 {
		t.Errorf("both overridden: %+v, %v", p, err)
	}
	if _, err := b.Resolve("", ptr(-1), ptr(1)); err == nil || err.Error() != "vcpu_hour_usd must be a finite number >= 0, got -1" {
		t.Errorf("negative override: %v", err)
	}
	if _, err := b.Resolve("nope", ptr(1), ptr(1)); !errors.As(err, &ue) {
		t.Errorf("unknown provider with overrides: %v", err)
	}

	// Adding a price with a preset's key replaces it in place.
	if err := b.Add(Price{Provider: "gcp-n2", VCPUHourUSD: 0.03, MemHourUSD: 0.004, MemUnit: GiB}); err != nil {
		t.Fatal(err)
	}
	if k := b.Keys(); !slices.Equal(k, []string{"aws-fargate-x86", "aws-fargate-arm64", "gcp-cloud-run", "gcp-n2", "gcp-e2"}) {
		t.Errorf("keys after replace: %v", k)
	}
	if p, _ := b.Lookup("gcp-n2"); p.VCPUHourUSD != 0.03 {
		t.Errorf("replace did not take: %+v", p)
	}
	if err := b.Add(Price{Provider: "bad key", MemUnit: GiB}); err == nil {
		t.Error("a key with a space was accepted")
	}
	if err := b.Add(Price{Provider: "x", MemUnit: "MB"}); err == nil || err.Error() != `memory unit "MB" must be "GB" or "GiB"` {
		t.Errorf("unit: %v", err)
	}
}

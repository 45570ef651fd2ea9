package cost

import (
	"errors"
	"os"
	"testing"
)

func TestParseBook(t *testing.T) {
	data, err := os.ReadFile("testdata/prices.toml")
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseBook("testdata/prices.toml", data)
	if err != nil {
		t.Fatal(err)
	}
	want := []Price{
		{Provider: "example-vps", Name: "Example VPS, per vCPU and GiB", Region: "eu-1", Arch: "x86_64",
			VCPUHourUSD: 0.0035, MemHourUSD: 0.0009, MemUnit: GiB, AsOf: "2026-11-01",
			SourceURL: "https://example.com/prices", Origin: "testdata/prices.toml"},
		{Provider: "gcp-n2", Name: "GCE N2 with a negotiated discount",
			VCPUHourUSD: 0.0199, MemHourUSD: 0.00267, MemUnit: GiB, Origin: "testdata/prices.toml"},
		{Provider: "onprem", Name: "onprem", VCPUHourUSD: 0.02, MemHourUSD: 0.002, MemUnit: GB,
			AsOf: "2026-10-15", Origin: "testdata/prices.toml"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d prices, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("price %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
	// Into a book: the preset gcp-n2 is replaced in place, the others follow the presets.
	b := NewBook()
	for _, p := range got {
		if err := b.Add(p); err != nil {
			t.Fatal(err)
		}
	}
	keys := b.Keys()
	if len(keys) != 7 || keys[3] != "gcp-n2" || keys[5] != "example-vps" || keys[6] != "onprem" {
		t.Errorf("keys = %v", keys)
	}
	if p, _ := b.Lookup("gcp-n2"); p.VCPUHourUSD != 0.0199 {
		t.Errorf("gcp-n2 not replaced: %+v", p)
	}
}

func TestParseBookErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"syntax", "[provider.a]\nvcpu_hour_usd = = 1\n",
			"p.toml:2:17: provider.a.vcpu_hour_usd: expected value but found '=' instead"},
		{"negative vCPU price", "[provider.a]\nvcpu_hour_usd = -0.5\ngib_hour_usd = 1\n",
			"p.toml:2:17: provider.a.vcpu_hour_usd: must be a finite number >= 0, got -0.5"},
		{"string price", "[provider.a]\nvcpu_hour_usd = 1\ngib_hour_usd = \"0.1\"\n",
			"p.toml:3:17: provider.a.gib_hour_usd: must be a number of US dollars, got a string"},
		{"infinite price", "[provider.a]\nvcpu_hour_usd = inf\ngib_hour_usd = 1\n",
			"p.toml:2:17: provider.a.vcpu_hour_usd: must be a finite number >= 0, got +Inf"},
		{"missing vCPU price", "\n[provider.a]\ngib_hour_usd = 1\n",
			"p.toml:2:2: provider.a: missing vcpu_hour_usd (US dollars per vCPU-hour)"},
		{"missing memory price", "[provider.a]\nvcpu_hour_usd = 1\n",
			"p.toml:1:1: provider.a: missing gib_hour_usd (US dollars per GiB-hour, GiB = 2^30 bytes) or gb_hour_usd (per GB-hour, GB = 10^9 bytes)"},
		{"both memory prices", "[provider.a]\nvcpu_hour_usd = 1\ngib_hour_usd = 1\ngb_hour_usd = 1\n",
			"p.toml:1:1: provider.a: give gib_hour_usd (per 2^30 bytes) or gb_hour_usd (per 10^9 bytes), not both"},
		{"unknown key", "[provider.a]\nvcpu_hour_usd = 1\ngib_hour_usd = 1\nram_hour = 2\n",
			`p.toml:1:1: provider.a: unknown key "ram_hour"; a provider table holds name, region, arch, vcpu_hour_usd, gib_hour_usd, gb_hour_usd, as_of, source_url`},
		{"bad date", "[provider.a]\nvcpu_hour_usd = 1\ngib_hour_usd = 1\nas_of = \"last week\"\n",
			`p.toml:4:10: provider.a.as_of: must be a date like 2026-11-29, got "last week"`},
		{"date-time", "[provider.a]\nvcpu_hour_usd = 1\ngib_hour_usd = 1\nas_of = 2026-01-02T03:04:05Z\n",
			"p.toml:4:9: provider.a.as_of: must be a date like 2026-11-29, got the date-time 2026-01-02T03:04:05Z"},
		{"name not a string", "[provider.a]\nname = 3\nvcpu_hour_usd = 1\ngib_hour_usd = 1\n",
			"p.toml:2:8: provider.a.name: must be a string, got an integer"},
		{"not a table", "provider = 3\n",
			"p.toml: provider: must hold tables [provider.KEY], not an integer"},
		{"provider not a table", "[provider]\na = 3\n",
			"p.toml:2:5: provider.a: must be a table [provider.KEY], got an integer"},
		{"unknown top-level table", "[providers.a]\nvcpu_hour_usd = 1\n",
			"p.toml: providers.a: unknown key; a price book holds only [provider.KEY] tables"},
		{"empty", "# nothing\n", "p.toml: no [provider.KEY] table"},
		{"duplicate", "[provider.a]\nvcpu_hour_usd = 1\ngib_hour_usd = 1\n[provider.a]\n",
			"p.toml:4:2: provider: Key 'provider.a' has already been defined."},
		{"bad key", "[provider.\"a b\"]\nvcpu_hour_usd = 1\ngib_hour_usd = 1\n",
			`p.toml: provider.a b: provider key "a b" must start with a letter or digit and hold only letters, digits, '_', '.', '-'`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseBook("p.toml", []byte(tc.in))
			var be *BookError
			if !errors.As(err, &be) {
				t.Fatalf("error %v (%T) is not a *BookError", err, err)
			}
			if err.Error() != tc.want {
				t.Errorf("error\n got %s\nwant %s", err, tc.want)
			}
		})
	}
}

func FuzzParseBook(f *testing.F) {
	data, err := os.ReadFile("testdata/prices.toml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add(data[:len(data)/2])
	f.Add([]byte("[provider.a]\nvcpu_hour_usd = 1\ngib_hour_usd = 1\n"))
	f.Add([]byte("[provider.a]\nvcpu_hour_usd = nan\ngb_hour_usd = -0.0\n"))
	f.Add([]byte("provider = [1, 2]\n"))
	// Not a price book at all: a wra manifest and a wrk report.
	f.Add([]byte("[labels]\npattern = \"{server}/{test}/c{connections}.txt\"\n"))
	f.Add([]byte("Running 10s test @ http://127.0.0.1:8080/\n  2 threads and 10 connections\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		prices, err := ParseBook("f.toml", in)
		if err != nil {
			var be *BookError
			if !errors.As(err, &be) {
				t.Fatalf("error %v (%T) is not a *BookError", err, err)
			}
			if prices != nil {
				t.Fatal("prices returned with an error")
			}
			return
		}
		if len(prices) == 0 {
			t.Fatal("no prices and no error")
		}
		for _, p := range prices {
			if err := p.Validate(); err != nil {
				t.Fatalf("invalid price %+v accepted: %v", p, err)
			}
		}
	})
}

package cost

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
)

// MemUnit is the unit of memory a provider prices by the hour.
type MemUnit string

const (
	// GB is the decimal gigabyte, 10^9 bytes. AWS Fargate prices memory
	// per GB-hour in this unit.
	GB MemUnit = "GB"
	// GiB is the binary gibibyte, 2^30 bytes. Cloud Run prices per
	// GiB-second; Compute Engine's price sheet says "GB" but defines it
	// as 2^30 bytes, so its prices are per GiB-hour too.
	GiB MemUnit = "GiB"
)

// Bytes per unit of memory.
const (
	BytesPerGB  = 1e9
	BytesPerGiB = 1 << 30
)

// HoursPerMonth is the month the model prices: 8760 hours a year / 12, the
// convention of the AWS and Google pricing calculators.
const HoursPerMonth = 730

// GiBPriceFromGB converts a price per GB-hour to a price per GiB-hour: a
// GiB is 2^30/10^9 = 1.073741824 GB, so it costs that much more. The product
// with 2^30 is exact in binary floating point, so the result is rounded
// once, by the division.
func GiBPriceFromGB(perGB float64) float64 { return perGB * BytesPerGiB / BytesPerGB }

// GBPriceFromGiB converts a price per GiB-hour to a price per GB-hour (the
// inverse of [GiBPriceFromGB]; rounded once, by the product with 10^9).
func GBPriceFromGiB(perGiB float64) float64 { return perGiB * BytesPerGB / BytesPerGiB }

// Price is one price point: what a vCPU-hour and an hour of memory cost
// with one provider, as published.
type Price struct {
	// Provider is the key that selects the price (`--provider KEY`).
	Provider string
	// Name is a readable name ("AWS Fargate Linux x86").
	Name   string
	Region string
	Arch   string
	// VCPUHourUSD is US dollars per vCPU-hour.
	VCPUHourUSD float64
	// MemHourUSD is US dollars per MemUnit-hour, as the provider publishes it.
	MemHourUSD float64
	MemUnit    MemUnit
	// AsOf is the date (YYYY-MM-DD) the price was recorded, SourceURL the
	// page it comes from; both may be empty for a user's own price.
	AsOf      string
	SourceURL string
	// Origin says where the price came from: "preset", the price book's
	// file name, or "command line".
	Origin string
}

// GiBHourUSD is the memory price per GiB-hour, converted exactly where the
// provider prices per GB.
func (p Price) GiBHourUSD() float64 {
	if p.MemUnit == GB {
		return GiBPriceFromGB(p.MemHourUSD)
	}
	return p.MemHourUSD
}

// GBHourUSD is the memory price per GB-hour (10^9 bytes).
func (p Price) GBHourUSD() float64 {
	if p.MemUnit == GB {
		return p.MemHourUSD
	}
	return GBPriceFromGiB(p.MemHourUSD)
}

var providerKeyRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

// Validate reports the first thing wrong with p: an empty or unusable
// provider key, a negative, infinite or NaN price, an unknown memory unit.
func (p Price) Validate() error {
	if !providerKeyRE.MatchString(p.Provider) {
		return fmt.Errorf("provider key %q must start with a letter or digit and hold only letters, digits, '_', '.', '-'", p.Provider)
	}
	if err := checkUSD("vcpu_hour_usd", p.VCPUHourUSD); err != nil {
		return err
	}
	switch p.MemUnit {
	case GB:
		return checkUSD("gb_hour_usd", p.MemHourUSD)
	case GiB:
		return checkUSD("gib_hour_usd", p.MemHourUSD)
	}
	return fmt.Errorf("memory unit %q must be %q or %q", p.MemUnit, GB, GiB)
}

func checkUSD(what string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return fmt.Errorf("%s must be a finite number >= 0, got %v", what, v)
	}
	return nil
}

// Override returns p with the vCPU price and/or the memory price (per GiB)
// replaced where the pointers are not nil, and Origin saying so. With both
// replaced, nothing of the preset remains and the result is the provider
// "custom".
func (p Price) Override(vcpuHourUSD, gibHourUSD *float64) Price {
	switch {
	case vcpuHourUSD != nil && gibHourUSD != nil:
		return Price{
			Provider:    "custom",
			Name:        "prices from the command line",
			VCPUHourUSD: *vcpuHourUSD,
			MemHourUSD:  *gibHourUSD,
			MemUnit:     GiB,
			Origin:      "command line",
		}
	case vcpuHourUSD != nil:
		p.VCPUHourUSD = *vcpuHourUSD
		p.Origin += ", vCPU price from the command line"
	case gibHourUSD != nil:
		p.MemHourUSD = *gibHourUSD
		p.MemUnit = GiB
		p.Origin += ", memory price from the command line"
	}
	return p
}

// UnknownProviderError is returned for a provider key that is not in the
// price book; Known lists the keys that are, in the book's order.
type UnknownProviderError struct {
	Provider string
	Known    []string
}

func (e *UnknownProviderError) Error() string {
	return fmt.Sprintf("unknown provider %q; known providers: %s", e.Provider, strings.Join(e.Known, ", "))
}

// Book is an ordered set of prices keyed by provider: the presets, then
// the user's own.
type Book struct {
	prices []Price
}

// NewBook returns a book holding the presets.
func NewBook() *Book {
	return &Book{prices: Presets()}
}

// Add puts p into the book after validating it. A price whose provider key
// is already in the book replaces the old one in place (a user's price book
// may update a preset).
func (b *Book) Add(p Price) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if i := slices.IndexFunc(b.prices, func(q Price) bool { return q.Provider == p.Provider }); i >= 0 {
		b.prices[i] = p
		return nil
	}
	b.prices = append(b.prices, p)
	return nil
}

// Prices returns a copy of the book's prices in order.
func (b *Book) Prices() []Price { return slices.Clone(b.prices) }

// Keys returns the provider keys in order.
func (b *Book) Keys() []string {
	keys := make([]string, len(b.prices))
	for i, p := range b.prices {
		keys[i] = p.Provider
	}
	return keys
}

// Lookup returns the price of a provider, or an *UnknownProviderError
// listing the known ones.
func (b *Book) Lookup(provider string) (Price, error) {
	for _, p := range b.prices {
		if p.Provider == provider {
			return p, nil
		}
	}
	return Price{}, &UnknownProviderError{Provider: provider, Known: b.Keys()}
}

// Resolve picks the price to use: the named provider's (the default
// provider when provider is empty and not both overrides are given), with
// the overrides applied. Overrides are validated like any price.
func (b *Book) Resolve(provider string, vcpuHourUSD, gibHourUSD *float64) (Price, error) {
	var p Price
	if provider != "" || vcpuHourUSD == nil || gibHourUSD == nil {
		if provider == "" {
			provider = DefaultProvider
		}
		var err error
		if p, err = b.Lookup(provider); err != nil {
			return Price{}, err
		}
	}
	p = p.Override(vcpuHourUSD, gibHourUSD)
	if err := p.Validate(); err != nil {
		return Price{}, err
	}
	return p, nil
}

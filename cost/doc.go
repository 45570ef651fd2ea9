// Package cost turns measured resource use into an amortised monthly price.
//
// It sits after the store and the statistics in wra's data flow: it takes
// CPU seconds per request (of the web stack and of its database), a memory
// figure or a memory slope, a target request rate and a target utilisation,
// and prices the resulting vCPUs and GiB with a per-vCPU-hour and a
// per-GiB-hour price:
//
//	in-flight = rps × (wait + latency)                       (Little's law)
//	vCPUs     = CPU-seconds per request × rps / utilisation
//	GiB       = fixed GiB, or base GiB + slope GiB per 1000 × in-flight / 1000
//	$/month   = (vCPUs × $/vCPU-hour + GiB × $/GiB-hour) × 730 h
//
// The stack and its database are priced separately with the same vCPU
// price (the database's memory is optional and fixed), and summed.
//
// The result is an amortised resource price, not a bill: it assumes the
// capacity can be bought in fractions of a vCPU and of a GiB, that the load
// is steady all month (730 hours = 8760 / 12), and it leaves out network,
// storage, requests fees, licences, free tiers and discounts.
//
// Prices come from presets (public on-demand list prices, each with its
// source and date; see [Presets]) or from the user's own price book in TOML
// ([ParseBook]). Providers price memory in different units: AWS per GB
// (10^9 bytes), Google per GiB (2^30 bytes, which Compute Engine also calls
// "GB"); every price is kept as published and converted exactly to per GiB.
//
// Because memory in this model is linear in the request rate (the wait and
// the latency are fixed), the monthly cost is an affine function of rps,
// and [Budget] inverts it in closed form. [ParseSweep] and [Sweep] evaluate
// the model over a range of rates.
//
// The package does no I/O (ParseBook takes the price book's bytes) and
// never rounds: formatting is the caller's job.
package cost

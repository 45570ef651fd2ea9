package cost

// DefaultProvider is the preset used when no provider is named.
const DefaultProvider = "aws-fargate-x86"

// presetsAsOf is the date the preset prices were recorded in wra, checked
// against copies of the source pages below (AWS's figures also against
// dated third-party copies of the AWS page from 2026). Public list prices
// change: the source URL is where to check them again.
const presetsAsOf = "2026-11-29"

// Presets returns the built-in on-demand list prices, in a fixed order.
//
// Memory units, from each provider's own price sheet:
//   - AWS Fargate prices memory "per GB per hour"; AWS's GB is 10^9 bytes,
//     so wra converts to per GiB by × 2^30/10^9.
//   - Cloud Run's pricing tables "use the GiB-second unit" (1 GiB = 2^30
//     bytes): $0.0000180 per vCPU-second and $0.0000020 per GiB-second
//     for instance-based billing in tier 1 regions, × 3600 = $0.0648 per
//     vCPU-hour and $0.0072 per GiB-hour.
//   - Compute Engine's VM price sheet lists "per GB" but states that "machine
//     type memory [is] calculated in gigabytes (GB), where 1 GB is 2^30 bytes
//     ... also known as a gibibyte (GiB)": its prices are per GiB-hour.
//     OpenCost's default price list ("Default prices based on GCP
//     us-central1", CPU 0.031611, RAM 0.004237 per hour) is the N2 price and
//     prices RAM per 2^30 bytes as well
//     (https://github.com/opencost/opencost/blob/develop/configs/default.json).
func Presets() []Price {
	return []Price{
		{
			Provider:    "aws-fargate-x86",
			Name:        "AWS Fargate Linux x86",
			Region:      "us-east-1",
			Arch:        "x86_64",
			VCPUHourUSD: 0.04048,
			MemHourUSD:  0.004445,
			MemUnit:     GB,
			AsOf:        presetsAsOf,
			SourceURL:   "https://aws.amazon.com/fargate/pricing/",
			Origin:      "preset",
		},
		{
			Provider:    "aws-fargate-arm64",
			Name:        "AWS Fargate Linux ARM (Graviton)",
			Region:      "us-east-1",
			Arch:        "arm64",
			VCPUHourUSD: 0.03238,
			MemHourUSD:  0.00356,
			MemUnit:     GB,
			AsOf:        presetsAsOf,
			SourceURL:   "https://aws.amazon.com/fargate/pricing/",
			Origin:      "preset",
		},
		{
			Provider:    "gcp-cloud-run",
			Name:        "Google Cloud Run, instance-based billing (tier 1)",
			Region:      "us-central1",
			Arch:        "x86_64",
			VCPUHourUSD: 0.0648,
			MemHourUSD:  0.0072,
			MemUnit:     GiB,
			AsOf:        presetsAsOf,
			SourceURL:   "https://cloud.google.com/run/pricing",
			Origin:      "preset",
		},
		{
			Provider:    "gcp-n2",
			Name:        "Google Compute Engine N2, OpenCost's default",
			Region:      "us-central1",
			Arch:        "x86_64",
			VCPUHourUSD: 0.031611,
			MemHourUSD:  0.004237,
			MemUnit:     GiB,
			AsOf:        presetsAsOf,
			SourceURL:   "https://cloud.google.com/compute/vm-instance-pricing",
			Origin:      "preset",
		},
		{
			Provider:    "gcp-e2",
			Name:        "Google Compute Engine E2",
			Region:      "us-central1",
			Arch:        "x86_64",
			VCPUHourUSD: 0.021811,
			MemHourUSD:  0.002923,
			MemUnit:     GiB,
			AsOf:        presetsAsOf,
			SourceURL:   "https://cloud.google.com/compute/vm-instance-pricing",
			Origin:      "preset",
		},
	}
}

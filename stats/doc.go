// Package stats holds the statistics wra publishes: pure functions over
// numbers, between the store (which supplies the numbers) and the reports
// (which print them). It does no I/O and knows nothing of SQL; the SQL
// views of the store compute the same figures by the same definitions.
//
// Every statistic names its method here and returns warnings (a Warning
// with a kind and a footnote-ready message) instead of a confident number
// from too little data.
//
// # Passes: centre and spread
//
// Summarize takes the repeated passes (rounds, runs) of one measurement.
//
//   - Quantiles, Q1, median and Q3 are Hyndman–Fan type 7: linear
//     interpolation between order statistics at position p*(n-1) (R's
//     quantile() default, NumPy's default, k6's p(N), DuckDB's
//     quantile_cont). See Quantile.
//   - IQR = Q3 - Q1. MAD is the raw median absolute deviation,
//     median(|x - median|), not multiplied by 1.4826 (R's mad(x, constant
//     = 1)).
//   - The confidence interval of the median is distribution-free: the
//     number of values below the population median is Binomial(n, 1/2), so
//     the order statistics [x(l), x(h)] cover the median with probability
//     P(l <= B < h). l and h are chosen as benchstat chooses them
//     (golang.org/x/perf/benchmath): start at the binomial's mode and add
//     the more probable neighbouring interval, the left one on a tie,
//     until the coverage reaches the level (DefaultConfidence, 0.95). The
//     binomial is evaluated exactly for every n (benchstat switches to a
//     normal approximation above n = 30). The coverage reached is kept in
//     CIConfidence. The "± x%" figure is 100 * max(hi/median - 1, 1 -
//     lo/median), as benchstat prints it.
//   - A finite interval needs n with 1 - 2^(1-n) >= level: 6 values at
//     95%, 8 at 99% (MinSamplesForCI). With fewer, the open side is
//     infinite and the warning reads "need >= 6 samples for a 95%
//     confidence interval". All values equal gives a zero-variance warning.
//
// # Comparisons
//
// Compare tests two groups with MannWhitneyU, two-sided: the Mann–Whitney U
// test (Wilcoxon rank-sum), with mid-ranks for ties.
//
//   - Without ties and with both samples smaller than 50 (R's rule), the p
//     value is exact: twice the smaller tail of the U distribution from
//     the Mann–Whitney recurrence, capped at 1 (R wilcox.test(exact =
//     TRUE)).
//   - Otherwise the normal approximation with the tie correction
//     sigma² = n1*n2/12 * ((n+1) - Σ(t³-t)/(n(n-1))) and a continuity
//     correction of 0.5 towards the mean (R wilcox.test(exact = FALSE,
//     correct = TRUE); SciPy mannwhitneyu(method="asymptotic",
//     use_continuity=True)).
//   - A difference is significant when p <= alpha (DefaultAlpha 0.05), as
//     benchstat decides. Delta is 100 * (median(vs)/median(base) - 1).
//     The text form is benchstat's: "+12.34% (p=0.029 n=4)", "~ (p=0.343
//     n=4)". With n1 and n2 values the smallest possible p is 2/C(n1+n2,
//     n1) (0.1 at 3 against 3), and a warning says when alpha is out of
//     reach.
//   - Across the rows of one table, HolmBonferroni (AdjustHolm) replaces
//     the p values by Holm's step-down adjusted values, which control the
//     family-wise error rate (R p.adjust(method = "holm")).
//
// # Ties in rankings
//
// RankTies orders entries by their median and lets an entry share the
// place above (competition ranking, "1, =2, =2, 4") when a TieRule cannot
// tell it apart from the first entry of that place, so ties never chain:
// where the rounds are enough for the two-sided MannWhitneyU test to
// reach alpha, when its p value exceeds alpha; with fewer rounds (3
// against 3), when the ranges of the rounds overlap; for single runs, when
// the medians differ by no more than TiePct (DefaultTiePct, 2%) of the
// larger magnitude, or the calibration drift of either entry when that is
// larger.
//
// # Memory slopes
//
// The slopes of memory against the number of concurrent waiting requests
// (OLS slope, its standard error, intercept and R², Theil–Sen) are
// defined once, by the store's view memory_slopes, in GiB (2^30 bytes) per
// 1000 concurrent requests. CheckMemoryFit takes them with the series'
// points and says when the series bends: when R² < 0.9, or when a
// quadratic term is significant (t-test, p < 0.05, from four points) and
// moves the local slope across the measured range by more than 20% of the
// linear slope; a bending series is flagged with a warning instead of
// being reduced to one confident slope.
//
// # Held-rate ladders
//
// A step is held when its p95 latency is under the threshold (default 50
// ms) and under 1% of its requests failed, both strictly, as k6 thresholds
// 'p(95)<50' and 'rate<0.01' are. p95 over request samples is type 7
// (k6's own definition, so recomputed values equal what k6 printed). The
// result of a run is the highest step held before the first failing step,
// with "+" when every step held, and the step size beside it; across runs
// the median (type 7) with every run listed. The steps and the rule are
// the store's (the ladder_steps and ladders table macros, the one
// definition): Ladder takes a run's verdict from there, and MedianLadder
// takes the median of the runs' results.
//
// # Calibration drift
//
// Drift compares the median of the timings of a fixed CPU job after a run
// with the median before it (per process count); the run is flagged when
// |after/before - 1| > tolerance (default 5%).
//
// # Latency spectra
//
// MergeSpectra adds HdrHistogram-style spectra (value, cumulative count)
// of several passes by value and recomputes percentiles. ABPercentile
// reproduces ApacheBench's "Percentage of the requests served within a
// certain time" table from its -g per-request data: sorted[(n * percent)
// / 100] with integer division (a nearest-rank rule, not type 7).
//
// # Findings
//
// The rules of findings.go turn a report's figures into findings and fire
// only with at least MinPasses passes of every compared figure and an
// effect beyond their noise (FindingRules, DefaultFindingRules).
// IdleCost: CPU per request falls at every rising rate, by at least
// IdleMinFall and by more than the spread of any rate's passes, with a
// one-sided Jonckheere–Terpstra test p < Alpha (DecreasingTrend: exact
// from the convolution of Mann–Whitney distributions without ties, as R's
// clinfun::jonckheere.test; the normal approximation otherwise). Split:
// servers ordered by median, the k largest gaps cut, a candidate when
// every cut gap exceeds the range of medians inside every group, the best
// separated candidate kept; found when each cut's MannWhitneyU p < Alpha
// and a permutation test of the whole search (SplitPermutations, a fixed
// seed) gives p < Alpha; ReplicatedSplits: the same candidate at two
// loads or more. OutlierTails: a lowest pass above the median of the peers'
// median p99s plus TailMADs times the larger of their MAD and their
// median pass MAD. UnstableSlope: Cochran's Q over the passes' slopes and
// standard errors, chi-squared with k-1 degrees of freedom.
// BrokenCounters, ErrorsInOneServer, SharedLimit and FirstStepFailed
// check counters, failures in one server, level throughputs with CPU per
// request that splits, and a ladder that never held.
package stats

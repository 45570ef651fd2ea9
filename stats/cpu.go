package stats

import "math"

// PerRequestUS returns CPU time per request in microseconds: cpuS seconds
// of CPU divided by requests. Pass the number of successful (2xx)
// responses, not every request sent: published CPU-per-request figures
// divide by the requests actually served, and failed requests that cost
// little CPU would otherwise make a failing server look cheap. ok is false
// (and the value NaN) when requests <= 0 or cpuS is negative, NaN or
// infinite: no figure is better than a wrong one.
func PerRequestUS(cpuS float64, requests int64) (float64, bool) {
	if requests <= 0 || !(cpuS >= 0) || math.IsInf(cpuS, 0) {
		return math.NaN(), false
	}
	return cpuS * 1e6 / float64(requests), true
}

// PerRequestMS is PerRequestUS in milliseconds.
func PerRequestMS(cpuS float64, requests int64) (float64, bool) {
	if requests <= 0 || !(cpuS >= 0) || math.IsInf(cpuS, 0) {
		return math.NaN(), false
	}
	return cpuS * 1e3 / float64(requests), true
}

// CPUPerRequest holds the CPU cost of one run per successful response, in
// microseconds. A field is NaN where its CPU figure or the response count
// is missing.
type CPUPerRequest struct {
	ServerUS, UserUS, KernelUS, DBUS float64
}

// CPUPerRequestUS divides each CPU figure (seconds; NaN when not measured)
// by the number of successful responses. The server figure is user +
// kernel CPU of all the server's processes as measured by the harness.
func CPUPerRequestUS(serverS, userS, kernelS, dbS float64, responses2xx int64) CPUPerRequest {
	f := func(s float64) float64 {
		v, _ := PerRequestUS(s, responses2xx)
		return v
	}
	return CPUPerRequest{ServerUS: f(serverS), UserUS: f(userS), KernelUS: f(kernelS), DBUS: f(dbS)}
}

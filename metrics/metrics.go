// Package metrics holds the collector's Prometheus metrics, shared by every binding so that receipts are counted
// the same way whichever binding carried them.
package metrics

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics counts receipts and times submissions.
type Metrics struct {
	registry *prometheus.Registry
	receipts *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	problems *prometheus.CounterVec
}

// New registers the collector's metrics (and the Go runtime's) on a fresh registry.
func New() *Metrics {
	m := &Metrics{
		registry: prometheus.NewRegistry(),
		receipts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "aqp_receipts_total",
			Help: "Receipts returned, by status, error code (\"\" when accepted), binding, and whether it replayed a stored receipt.",
		}, []string{"status", "code", "binding", "duplicate"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "aqp_submission_duration_seconds",
			Help:    "Time from receiving a submission to having its receipt, by binding and status.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}, []string{"binding", "status"}),
		problems: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "aqp_submission_problems_total",
			Help: "Submissions answered without a receipt (problem documents), by binding and HTTP status.",
		}, []string{"binding", "status"}),
	}
	m.registry.MustRegister(m.receipts, m.latency, m.problems,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Receipt records one receipt.
func (m *Metrics) Receipt(binding string, accepted bool, code string, duplicate bool, took time.Duration) {
	status := "rejected"
	if accepted {
		status = "accepted"
	}
	dup := "false"
	if duplicate {
		dup = "true"
	}
	m.receipts.WithLabelValues(status, code, binding, dup).Inc()
	m.latency.WithLabelValues(binding, status).Observe(took.Seconds())
}

// Problem records a submission answered with a problem document.
func (m *Metrics) Problem(binding string, httpStatus int) {
	m.problems.WithLabelValues(binding, http.StatusText(httpStatus)).Inc()
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}

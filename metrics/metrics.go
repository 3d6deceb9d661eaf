// Package metrics holds the collector's Prometheus metrics. They are recorded in one place — the service's
// observer around the Submitter every binding uses — so receipts are counted the same way whichever binding
// carried them, labelled by binding and receipt code, never by a wire detail such as an HTTP status.
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
	wire     *prometheus.CounterVec
}

// New registers the collector's metrics (and the Go runtime's) on a fresh registry.
func New() *Metrics {
	m := &Metrics{
		registry: prometheus.NewRegistry(),
		receipts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "aqp_receipts_total",
			Help: "Receipts returned, by binding, status, error code (\"\" when accepted), and whether it replayed a stored receipt.",
		}, []string{"binding", "status", "code", "duplicate"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "aqp_submission_duration_seconds",
			Help:    "Time from receiving a submission to having its receipt, by binding and status.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}, []string{"binding", "status"}),
		problems: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "aqp_submission_problems_total",
			Help: "Submissions no receipt could be formed for (no readable queryId and responseId), by binding.",
		}, []string{"binding"}),
		wire: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "aqp_wire_rejections_total",
			Help: "Requests a binding refused before they became a submission, by binding and reason (media_type, too_large, unreadable, method, ...).",
		}, []string{"binding", "reason"}),
	}
	m.registry.MustRegister(m.receipts, m.latency, m.problems, m.wire,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Receipt records one receipt: code is its error.code ("" when accepted).
func (m *Metrics) Receipt(binding, code string, accepted, duplicate bool, took time.Duration) {
	status := "rejected"
	if accepted {
		status = "accepted"
	}
	dup := "false"
	if duplicate {
		dup = "true"
	}
	m.receipts.WithLabelValues(binding, status, code, dup).Inc()
	m.latency.WithLabelValues(binding, status).Observe(took.Seconds())
}

// Problem records a submission answered without a receipt.
func (m *Metrics) Problem(binding string) {
	m.problems.WithLabelValues(binding).Inc()
}

// WireRejected records a request a binding refused before it became a submission.
func (m *Metrics) WireRejected(binding, reason string) {
	m.wire.WithLabelValues(binding, reason).Inc()
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}

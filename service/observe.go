package service

import (
	"context"
	"time"

	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/metrics"
)

// Observe wraps a Submitter so that every submission, whichever binding carried it, is counted and timed once:
// receipts by binding and code, problems by binding. The service wraps its collector with it before handing it to
// the bindings; a program that composes bindings itself can do the same.
func Observe(next collector.Submitter, m *metrics.Metrics) collector.Submitter {
	return &observed{next: next, m: m}
}

type observed struct {
	next collector.Submitter
	m    *metrics.Metrics
}

func (o *observed) Submit(ctx context.Context, s collector.Submission) collector.Outcome {
	start := time.Now()
	out := o.next.Submit(ctx, s)
	if out.Problem != nil {
		o.m.Problem(s.Binding)
		return out
	}
	o.m.Receipt(s.Binding, string(out.Code), out.Accepted, out.Duplicate, time.Since(start))
	return out
}

// WireRejected counts a request a binding refused before it became a submission, and forwards it to what it
// wraps, which may count it too.
func (o *observed) WireRejected(binding, reason string) {
	o.m.WireRejected(binding, reason)
	o.next.WireRejected(binding, reason)
}

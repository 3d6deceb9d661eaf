package harness

import (
	"context"

	"github.com/agentqueryprotocol/aqp-go/core/collector"
)

// Core is the Target that calls the collector directly, with no binding in between: the reference every binding's
// receipts are compared with.
func Core(env *Env) (Target, error) {
	c, err := collector.New(env.Config)
	if err != nil {
		return nil, err
	}
	return coreTarget{c}, nil
}

type coreTarget struct{ c *collector.Collector }

func (t coreTarget) Issue(ctx context.Context, draft []byte) ([]byte, error) {
	return t.c.Issue(ctx, draft)
}

func (t coreTarget) Submit(ctx context.Context, body []byte, auth string) (Result, error) {
	out := t.c.Submit(ctx, collector.Submission{Body: body, Authorization: auth, Binding: "core"})
	return Result{Receipt: out.Receipt, Problem: out.Problem != nil}, nil
}

func (coreTarget) Close() {}

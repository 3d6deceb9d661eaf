package respondent

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cenkalti/backoff/v5"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/gen/aqp"
)

// RetryConfig shapes how a response is sent again after a retryable receipt or a transport failure: exponential
// backoff with jitter between Initial and Max (a receipt's retryAfter overrides one wait), every attempt bounded
// by AttemptTimeout, and no attempt after the query expires.
type RetryConfig struct {
	// Initial is the first wait; default 500 ms.
	Initial time.Duration
	// Max is the longest wait; default 30 s.
	Max time.Duration
	// AttemptTimeout bounds one delivery; default 30 s (never past the query's expiry).
	AttemptTimeout time.Duration
}

func (c RetryConfig) withDefaults() RetryConfig {
	if c.Initial <= 0 {
		c.Initial = 500 * time.Millisecond
	}
	if c.Max <= 0 {
		c.Max = 30 * time.Second
	}
	if c.Max < c.Initial {
		c.Max = c.Initial
	}
	if c.AttemptTimeout <= 0 {
		c.AttemptTimeout = 30 * time.Second
	}
	return c
}

// RetryEvent is one failed attempt that will be retried.
type RetryEvent struct {
	QueryID, ResponseID string
	// Attempt is the number of the attempt that failed, from 1.
	Attempt int
	// Err says why: a *TransportError, or a *RetryableError for a retryable receipt.
	Err error
	// Wait is how long until the next attempt.
	Wait time.Duration
}

// RetryableError is a retryable receipt (rate_limited, unavailable): the same response goes again.
type RetryableError struct {
	Code       core.Code
	Message    string
	RetryAfter time.Duration
}

// Error implements the error interface.
func (e *RetryableError) Error() string {
	s := fmt.Sprintf("retryable receipt %s: %s", e.Code, e.Message)
	if e.RetryAfter > 0 {
		s += fmt.Sprintf(" (retry after %s)", e.RetryAfter)
	}
	return s
}

// DeliveryError is a response that could not be delivered: the query expired (or ctx ended) while retrying, or
// the collector's answer could not be trusted as a receipt for it, or the destination was refused.
type DeliveryError struct {
	QueryID, ResponseID string
	Attempts            int
	// Expired is true when retrying stopped because the query expired.
	Expired bool
	// Err is the last attempt's failure.
	Err error
}

// Error implements the error interface.
func (e *DeliveryError) Error() string {
	why := "delivery failed"
	if e.Expired {
		why = "the query expired before delivery succeeded"
	}
	return fmt.Sprintf("response %s to query %s: %s after %d attempt(s): %v", e.ResponseID, e.QueryID, why, e.Attempts, e.Err)
}

// Unwrap returns the cause, for errors.Is and errors.As.
func (e *DeliveryError) Unwrap() error { return e.Err }

// deliver sends body until a decisive receipt, a permanent failure, or q's expiry.
func (r *Respondent) deliver(ctx context.Context, q *Query, resp *aqp.QueryResponse, body []byte) (*Result, error) {
	req := q.Request
	tr, _ := r.cfg.Transports.Get(string(req.Delivery.Binding))
	d := q.Delivery()
	rc := r.cfg.Retry.withDefaults()
	res := &Result{Query: q, Response: body, ResponseID: resp.ResponseID}

	ctx, cancel := context.WithDeadline(ctx, q.ExpiresAt)
	defer cancel()
	var last error
	op := func() (*aqp.QueryReceipt, error) {
		res.Attempts++
		actx, acancel := context.WithTimeout(ctx, rc.AttemptTimeout)
		raw, err := tr.Deliver(actx, d, body)
		acancel()
		last = err
		var pe *PolicyError
		var prob *ProblemError
		switch {
		case errors.As(err, &pe), errors.As(err, &prob):
			return nil, backoff.Permanent(err)
		case err != nil:
			return nil, err
		}
		rec, errs := core.ParseReceipt(raw)
		if len(errs) == 0 {
			errs = core.CheckObjects(nil, resp, rec)
		}
		if len(errs) > 0 {
			last = fmt.Errorf("the collector's reply is not a valid receipt for this response: %w", errs.Err())
			return nil, backoff.Permanent(last)
		}
		res.Receipt, res.Parsed = raw, rec
		if rec.Status == aqp.QueryReceiptStatusRejected && rec.Retryable {
			re := &RetryableError{}
			if rec.Error != nil {
				re.Code, re.Message = core.Code(rec.Error.Code), rec.Error.Message
			}
			if rec.RetryAfter != nil {
				re.RetryAfter = time.Duration(*rec.RetryAfter) * time.Second
			}
			last = re
			if re.RetryAfter > 0 {
				return nil, errors.Join(re, &backoff.RetryAfterError{Duration: re.RetryAfter})
			}
			return nil, re
		}
		return rec, nil
	}
	eb := backoff.NewExponentialBackOff()
	eb.InitialInterval, eb.MaxInterval = rc.Initial, rc.Max
	rec, err := backoff.Retry(ctx, op,
		backoff.WithBackOff(eb),
		backoff.WithMaxElapsedTime(0),
		backoff.WithNotify(func(err error, wait time.Duration) {
			ev := RetryEvent{QueryID: req.QueryID, ResponseID: resp.ResponseID, Attempt: res.Attempts, Err: last, Wait: wait}
			r.log.Info("aqp delivery will be retried", "query_id", req.QueryID, "response_id", resp.ResponseID,
				"attempt", ev.Attempt, "wait", wait, "err", last)
			if r.cfg.OnRetry != nil {
				r.cfg.OnRetry(ev)
			}
		}))
	if err != nil {
		if last == nil {
			last = err
		}
		de := &DeliveryError{QueryID: req.QueryID, ResponseID: resp.ResponseID, Attempts: res.Attempts, Err: last}
		if !time.Now().Before(q.ExpiresAt) {
			de.Expired = true
		} else if cerr := context.Cause(ctx); cerr != nil && errors.Is(err, cerr) && last != err {
			de.Err = fmt.Errorf("%w (last attempt: %v)", cerr, last)
		}
		return res, de
	}
	res.Accepted = rec.Status == aqp.QueryReceiptStatusAccepted
	if !res.Accepted {
		re := Rejection(rec)
		re.QueryID, re.ResponseID = req.QueryID, resp.ResponseID // as this respondent wrote them
		return res, re
	}
	if rec.Continuation != nil {
		res.Continuation, res.ContinuationDrop = r.IntakeRequest("continuation of "+req.QueryID, rec.Continuation)
	}
	return res, nil
}

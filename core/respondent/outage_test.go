package respondent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/gen/aqp"
	"github.com/agentqueryprotocol/aqp-go/service"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
)

// flakyStore is a store that can be made unavailable: while down, every query read and every acceptance fails,
// as a database that went away would. It counts the acceptances it stored.
type flakyStore struct {
	collector.Store
	down     atomic.Bool
	accepted atomic.Int64
	// onAccept runs after each stored acceptance, with the running count.
	onAccept func(n int64)
}

var errDown = errors.New("test: the store is unavailable")

func (s *flakyStore) LoadQuery(ctx context.Context, id string) (collector.Query, *collector.Acceptance, error) {
	if s.down.Load() {
		return collector.Query{}, nil, errDown
	}
	return s.Store.LoadQuery(ctx, id)
}

func (s *flakyStore) Accept(ctx context.Context, a collector.Acceptance) (*collector.Acceptance, error) {
	if s.down.Load() {
		return nil, errDown
	}
	got, err := s.Store.Accept(ctx, a)
	if err == nil {
		n := s.accepted.Add(1)
		if s.onAccept != nil {
			s.onAccept(n)
		}
	}
	return got, err
}

// recordingTransport records every attempt's bytes by responseId.
type recordingTransport struct {
	respondent.Transport
	mu       sync.Mutex
	attempts map[string][][]byte
}

func (r *recordingTransport) Deliver(ctx context.Context, d respondent.Delivery, body []byte) ([]byte, error) {
	var v struct {
		ResponseID string `json:"responseId"`
	}
	if json.Unmarshal(body, &v) == nil {
		resp := v.ResponseID
		r.mu.Lock()
		r.attempts[resp] = append(r.attempts[resp], append([]byte(nil), body...))
		r.mu.Unlock()
	}
	return r.Transport.Deliver(ctx, d, body)
}

// TestOutageMidDelivery: 200 responses delivered over the HTTPS binding to an in-process collector whose store
// goes away for a while after the 60th acceptance. Every response is accepted exactly once after it recovers;
// every retry carries its original responseId and bytes. AQP_OUTAGE_SECONDS sets the outage (default 2 s; the
// issue's figure is 10).
func TestOutageMidDelivery(t *testing.T) {
	if testing.Short() {
		t.Skip("several seconds of outage")
	}
	const n = 200
	outage := 2 * time.Second
	if s := os.Getenv("AQP_OUTAGE_SECONDS"); s != "" {
		secs, err := strconv.Atoi(s)
		if err != nil {
			t.Fatal(err)
		}
		outage = time.Duration(secs) * time.Second
	}
	store := &flakyStore{Store: memory.New()}
	var outageStart, outageEnd atomic.Int64
	store.onAccept = func(k int64) {
		if k == 60 {
			store.down.Store(true)
			outageStart.Store(time.Now().UnixNano())
			time.AfterFunc(outage, func() { outageEnd.Store(time.Now().UnixNano()); store.down.Store(false) })
		}
	}
	srv := httptest.NewUnstartedServer(nil)
	publicURL := "http://" + srv.Listener.Addr().String()
	svc, err := service.New(service.Config{
		Collector: collector.Config{Store: store, PublicURL: publicURL, Logger: slog.New(slog.DiscardHandler),
			RateLimit: collector.RateLimit{Disabled: true}, FailureLimit: collector.RateLimit{Disabled: true}},
		Bindings: []service.Binding{https.Binding{}}, AdminToken: "admin", Logger: slog.New(slog.DiscardHandler),
	})
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = svc.Handler()
	srv.Start()
	defer srv.Close()

	ctx := context.Background()
	queries := make([][]byte, n)
	for i := range queries {
		draft := fmt.Sprintf(`{"type":"feedback","subject":{"kind":"task","id":"t%d"},"prompt":"Done?","response":{"format":"boolean"},"timing":"immediate","consentMode":"not_required","ttlSeconds":120}`, i)
		if queries[i], err = svc.Collector().Issue(ctx, []byte(draft)); err != nil {
			t.Fatal(err)
		}
	}
	policy := &respondent.Policy{AllowHTTPLoopback: true}
	tr := &recordingTransport{Transport: &https.Client{HTTP: policy.Client()}, attempts: map[string][][]byte{}}
	reg, _ := respondent.NewRegistry(tr)
	var retries atomic.Int64
	r, err := respondent.New(respondent.Config{Transports: reg, Policy: policy,
		Grants:     &noGrants{},
		Respondent: aqp.QueryResponseRespondent{Kind: aqp.QueryResponseRespondentKindAgent, Provenance: aqp.QueryResponseRespondentProvenanceDirect},
		Answer: func(context.Context, *respondent.Query) (respondent.Answer, error) {
			return respondent.Answer{Value: true}, nil
		},
		Retry:   respondent.RetryConfig{Initial: 50 * time.Millisecond, Max: 500 * time.Millisecond, AttemptTimeout: 5 * time.Second},
		OnRetry: func(respondent.RetryEvent) { retries.Add(1) },
	})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	results := make([]*respondent.Result, n)
	errs := make([]error, n)
	sem := make(chan struct{}, 16)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			q, err := r.Intake("issued", queries[i])
			if err != nil {
				errs[i] = err
				return
			}
			results[i], errs[i] = r.Respond(ctx, q)
		}()
	}
	wg.Wait()
	if outageStart.Load() == 0 {
		t.Fatal("the outage never started")
	}
	accepted := 0
	for i := range n {
		if errs[i] != nil {
			t.Errorf("query %d: %v", i, errs[i])
			continue
		}
		if results[i].Accepted {
			accepted++
		}
		// Every attempt of this response carried its responseId and the same bytes.
		atts := tr.attempts[results[i].ResponseID]
		if len(atts) != results[i].Attempts {
			t.Errorf("query %d: %d attempts recorded under its responseId, %d made", i, len(atts), results[i].Attempts)
		}
		for _, b := range atts {
			if !bytes.Equal(b, results[i].Response) {
				t.Errorf("query %d: a retry differs from the original response", i)
			}
		}
		st, err := svc.Collector().Lookup(ctx, results[i].Query.Request.QueryID)
		if err != nil || st.Acceptance == nil {
			t.Errorf("query %d: not answered in the store: %v", i, err)
		} else if !bytes.Equal(st.Acceptance.Response, results[i].Response) {
			t.Errorf("query %d: the stored response is not the one sent", i)
		}
	}
	if accepted != n || store.accepted.Load() != n {
		t.Fatalf("%d accepted receipts, %d acceptances stored; want %d and %d", accepted, store.accepted.Load(), n, n)
	}
	if retries.Load() == 0 {
		t.Fatal("no retries: the outage was not exercised")
	}
	t.Logf("%d responses, outage %s after the 60th acceptance: all accepted exactly once in %s with %d retries",
		n, time.Duration(outageEnd.Load()-outageStart.Load()).Round(time.Millisecond), time.Since(start).Round(time.Millisecond), retries.Load())
}

// noGrants is a GrantStore for queries that need no consent.
type noGrants struct{}

func (*noGrants) LookupGrant(string, string) (respondent.Grant, bool, error) {
	return respondent.Grant{}, false, nil
}
func (*noGrants) SaveGrant(respondent.Grant) error       { return errors.New("unused") }
func (*noGrants) RecordRefusal(respondent.Refusal) error { return errors.New("unused") }

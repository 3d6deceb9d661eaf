package https_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"

	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/internal/workload"
	"github.com/agentqueryprotocol/aqp-go/service"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
	"github.com/agentqueryprotocol/aqp-go/store/sqlite"
)

// BenchmarkSubmission measures one accepted submission — a fresh query each time — through the collector's core
// and over the HTTPS binding on loopback, with the memory and SQLite stores, beside the baseline: a bare net/http
// handler on loopback that decodes the same body and writes a fixed receipt. Compare ratios, not absolute times.
// Every sub-benchmark runs 16×GOMAXPROCS goroutines (32 on a 2-core machine, as the load run's clients), so
// SQLite's group commit batches as it does under load.
func BenchmarkSubmission(b *testing.B) {
	b.Run("baseline=bare-http", func(b *testing.B) {
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var v map[string]any
			if err := json.NewDecoder(r.Body).Decode(&v); err != nil {
				http.Error(w, err.Error(), 400)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(workload.FixedReceipt)
		}))
		defer ts.Close()
		jobs := make([]job, b.N)
		for i := range jobs {
			jobs[i] = job{url: ts.URL, auth: "Bearer x", body: workload.Response(uuid.Must(uuid.NewV7()).String())}
		}
		runHTTP(b, ts.Client(), jobs)
	})
	stores := []struct {
		name string
		open func(b *testing.B) collector.Store
	}{
		{"memory", func(b *testing.B) collector.Store { return memory.New() }},
		{"sqlite", func(b *testing.B) collector.Store {
			s, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"))
			if err != nil {
				b.Fatal(err)
			}
			return s
		}},
	}
	for _, st := range stores {
		b.Run("core/"+st.name, func(b *testing.B) {
			store := st.open(b)
			defer store.Close()
			c := benchCollector(b, store, "http://collector.bench")
			runParallel(b, issueN(b, c, b.N), func(j job) {
				if out := c.Submit(context.Background(), collector.Submission{Body: j.body, Authorization: j.auth}); !out.Accepted {
					b.Errorf("not accepted: %s", out.Receipt)
				}
			})
		})
		b.Run("https/"+st.name, func(b *testing.B) {
			store := st.open(b)
			defer store.Close()
			ts := httptest.NewUnstartedServer(nil)
			url := "http://" + ts.Listener.Addr().String()
			svc, err := service.New(service.Config{Collector: collector.Config{Store: store, PublicURL: url, RateLimit: collector.RateLimit{Disabled: true}},
				Bindings: []service.Binding{https.Binding{}}, AdminToken: "bench"})
			if err != nil {
				b.Fatal(err)
			}
			c := svc.Collector()
			ts.Config.Handler = svc.Handler()
			ts.Start()
			defer ts.Close()
			runHTTP(b, ts.Client(), issueN(b, c, b.N))
		})
	}
}

type job struct {
	url, auth string
	body      []byte
}

func benchCollector(b *testing.B, s collector.Store, url string) *collector.Collector {
	c, err := collector.New(collector.Config{Store: s, PublicURL: url, RateLimit: collector.RateLimit{Disabled: true},
		Endpoints: []collector.Endpoint{https.Endpoint()}})
	if err != nil {
		b.Fatal(err)
	}
	return c
}

func issueN(b *testing.B, c *collector.Collector, n int) []job {
	b.Helper()
	jobs := make([]job, n)
	for i := range jobs {
		req, err := c.Issue(context.Background(), []byte(workload.Draft))
		if err != nil {
			b.Fatal(err)
		}
		var q struct {
			QueryID  string
			Delivery struct{ Endpoint, Authorization string }
		}
		_ = json.Unmarshal(req, &q)
		jobs[i] = job{url: q.Delivery.Endpoint, auth: q.Delivery.Authorization, body: workload.Response(q.QueryID)}
	}
	return jobs
}

// runParallel times one call of submit per job, from 16×GOMAXPROCS goroutines.
func runParallel(b *testing.B, jobs []job, submit func(job)) {
	var next atomic.Int64
	b.ReportAllocs()
	b.SetParallelism(16)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			submit(jobs[next.Add(1)-1])
		}
	})
}

// runHTTP posts each job's body to its URL with its capability.
func runHTTP(b *testing.B, client *http.Client, jobs []job) {
	runParallel(b, jobs, func(j job) {
		req, _ := http.NewRequest(http.MethodPost, j.url, bytes.NewReader(j.body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", j.auth)
		resp, err := client.Do(req)
		if err != nil {
			b.Error(err)
			return
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Errorf("status %d", resp.StatusCode)
		}
	})
}

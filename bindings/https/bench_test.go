package https_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

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
		workload.RunHTTP(b, ts.Client(), workload.BaselineJobs(ts.URL, b.N, nil), nil, statusOK)
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
			workload.RunParallel(b, workload.IssueJobs(b, c, []byte(workload.Draft), b.N, nil), func(j workload.Job) {
				if out := c.Submit(context.Background(), collector.Submission{Body: j.Body, Authorization: j.Authorization}); !out.Accepted {
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
			workload.RunHTTP(b, ts.Client(), workload.IssueJobs(b, c, []byte(workload.Draft), b.N, nil), nil, statusOK)
		})
	}
}

func benchCollector(b *testing.B, s collector.Store, url string) *collector.Collector {
	c, err := collector.New(collector.Config{Store: s, PublicURL: url, RateLimit: collector.RateLimit{Disabled: true},
		Endpoints: []collector.Endpoint{https.Endpoint()}})
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// statusOK: an accepted submission over HTTPS is a 200.
func statusOK(status int, _ []byte) bool { return status == http.StatusOK }

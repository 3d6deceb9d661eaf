package workload

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"

	"github.com/agentqueryprotocol/aqp-go/core/collector"
)

// Job is one submission of a benchmark: where it goes, with which Authorization header, what body.
type Job struct {
	URL, Authorization string
	Body               []byte
}

// IssueJobs issues n queries from draft through issuer and returns, for each, a job that submits a fresh accepted
// response to the query's delivery endpoint with its capability; wrap (nil for none) turns the response into the
// binding's request body (a tools/call, a message/send). Issuing is set-up, not timed.
func IssueJobs(tb testing.TB, issuer collector.Issuer, draft []byte, n int, wrap func(response []byte) []byte) []Job {
	tb.Helper()
	jobs := make([]Job, n)
	for i := range jobs {
		req, err := issuer.Issue(context.Background(), draft)
		if err != nil {
			tb.Fatal(err)
		}
		var q struct {
			QueryID  string
			Delivery struct{ Endpoint, Authorization string }
		}
		if err := json.Unmarshal(req, &q); err != nil {
			tb.Fatal(err)
		}
		body := Response(q.QueryID)
		if wrap != nil {
			body = wrap(body)
		}
		jobs[i] = Job{URL: q.Delivery.Endpoint, Authorization: q.Delivery.Authorization, Body: body}
	}
	return jobs
}

// BaselineJobs are n jobs for a baseline server at url: fresh responses to random queryIds, wrapped like the
// binding's requests, so the baseline decodes what the binding decodes.
func BaselineJobs(url string, n int, wrap func(response []byte) []byte) []Job {
	jobs := make([]Job, n)
	for i := range jobs {
		body := Response(uuid.Must(uuid.NewV7()).String())
		if wrap != nil {
			body = wrap(body)
		}
		jobs[i] = Job{URL: url, Authorization: "Bearer x", Body: body}
	}
	return jobs
}

// RunParallel times one call of submit per job, from 16×GOMAXPROCS goroutines: enough concurrency that SQLite's
// group commit batches as it does under load, the same in every binding's benchmark so their ratios compare.
func RunParallel(b *testing.B, jobs []Job, submit func(Job)) {
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

// RunHTTP POSTs each job's body (Content-Type application/json, its Authorization, and the extra header) through
// client, and fails the benchmark when accepted says the reply is not an accepted receipt.
func RunHTTP(b *testing.B, client *http.Client, jobs []Job, header http.Header, accepted func(status int, reply []byte) bool) {
	RunParallel(b, jobs, func(j Job) {
		req, _ := http.NewRequest(http.MethodPost, j.URL, bytes.NewReader(j.Body))
		for k, v := range header {
			req.Header[k] = v
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", j.Authorization)
		resp, err := client.Do(req)
		if err != nil {
			b.Error(err)
			return
		}
		reply, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !accepted(resp.StatusCode, reply) {
			b.Errorf("not accepted: %d %.300s", resp.StatusCode, reply)
		}
	})
}

package respondentrun_test

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	aqpmcp "github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/conformance/report"
	"github.com/agentqueryprotocol/aqp-go/conformance/respondentrun"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// handArg is the first argument that turns the test binary into a respondent under test (an argument rather than
// the environment, so that the modes run in parallel).
const handArg = "aqp-hand-respondent"

// TestMain turns the test binary into a respondent under test when started as BINARY handArg MODE {signals}
// {url}: a hand-written respondent (https carrier and delivery only) that is correct in mode "good" and breaks one
// rule in each other mode.
func TestMain(m *testing.M) {
	if len(os.Args) == 5 && os.Args[1] == handArg {
		if err := handRespondent(os.Args[2], os.Args[3], os.Args[4]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// handQuery is the part of a query the hand respondent reads.
type handQuery struct {
	QueryID     string         `json:"queryId"`
	Subject     map[string]any `json:"subject"`
	ConsentMode string         `json:"consentMode"`
	Timing      string         `json:"timing"`
	ExpiresAt   time.Time      `json:"expiresAt"`
	Delivery    struct{ Binding, Endpoint, Operation, Authorization string }
}

// handRespondent takes the query from the AQP-Query header at url and answers "yes", then answers the
// continuation its receipt carries (three at most). signals is the runner's {signals}: the timing signals its host
// gave. Its faults, by mode: new-response-id retries with a fresh responseId; late answers expired queries;
// ignore-destination delivers wherever the query says, with no destination rule; ignore-consent-refusal sends its
// answer when the principal refuses; no-authorization delivers without the capability; other-subject names a
// subject of its own; no-wait answers at once, whatever the query's timing and the host's signals;
// ignore-continuation answers no continuation; wrong-binding delivers over MCP what the query's delivery sends
// over HTTPS.
func handRespondent(mode, signals, url string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	resp, err := http.Get(url)
	if err != nil {
		return err
	}
	resp.Body.Close()
	raw, err := base64.RawURLEncoding.DecodeString(resp.Header.Get(https.QueryHeader))
	if err != nil {
		return err
	}
	var q handQuery
	if err := json.Unmarshal(raw, &q); err != nil {
		return err
	}
	for follow := 0; ; follow++ {
		rec, err := handAnswer(ctx, mode, strings.Split(signals, ","), q)
		if err != nil {
			return err
		}
		var r struct {
			Continuation *handQuery `json:"continuation"`
		}
		_ = json.Unmarshal(rec, &r)
		if r.Continuation == nil || mode == "ignore-continuation" || follow == 3 {
			return nil
		}
		q = *r.Continuation
	}
}

// handAnswer answers one query "yes" (after its timing signal, consent and the destination rule) and returns the
// receipt.
func handAnswer(ctx context.Context, mode string, signals []string, q handQuery) ([]byte, error) {
	if mode != "late" && !time.Now().Before(q.ExpiresAt) {
		return nil, fmt.Errorf("query %s expired: dropped", q.QueryID)
	}
	if kind, waits := map[string]string{"after_outcome_known": "outcome_known", "after_task_complete": "task_complete"}[q.Timing]; waits && mode != "no-wait" {
		sk, _ := q.Subject["kind"].(string)
		if p, ok := q.Subject["protocol"].(string); ok {
			sk += "/" + p
		}
		id, _ := q.Subject["id"].(string)
		if want := kind + ":" + sk + ":" + id; !slices.Contains(signals, want) {
			time.Sleep(time.Until(q.ExpiresAt))
			return nil, fmt.Errorf("query %s: the host never gave %s; dropped at expiry", q.QueryID, want)
		}
	}
	if mode != "ignore-destination" && !strings.HasPrefix(q.Delivery.Endpoint, "http://127.0.0.1:") {
		return nil, fmt.Errorf("delivery endpoint %s is not an authorised destination: dropped", q.Delivery.Endpoint)
	}
	now := time.Now().UTC().Format(time.RFC3339)
	body := map[string]any{"protocolVersion": "2026-07-30", "queryId": q.QueryID, "subject": q.Subject,
		"respondent": map[string]any{"kind": "agent", "provenance": "direct"}, "answer": "yes", "createdAt": now}
	if mode == "other-subject" {
		body["subject"] = map[string]any{"kind": "task", "id": "a-subject-of-its-own"}
	}
	if q.ConsentMode != "not_required" {
		line, _ := bufio.NewReader(os.Stdin).ReadString('\n')
		if strings.TrimSpace(line) != "y" && mode != "ignore-consent-refusal" {
			return nil, fmt.Errorf("consent refused: nothing sent")
		}
		body["consent"] = map[string]any{"granted": true, "obtainedAt": now}
	}
	client := &https.Client{HTTP: &http.Client{}}
	d := respondent.Delivery{Binding: q.Delivery.Binding, Endpoint: q.Delivery.Endpoint, Operation: q.Delivery.Operation, Authorization: q.Delivery.Authorization}
	if mode == "no-authorization" {
		d.Authorization = ""
	}
	deliver := client.Deliver
	if mode == "wrong-binding" {
		// The same collector and capability, over MCP, although the query's delivery names HTTPS.
		d = respondent.Delivery{Binding: spec.BindingMCP, Endpoint: strings.TrimSuffix(d.Endpoint, spec.HTTPSPath) + spec.MCPPath,
			Operation: spec.MCPOperation, Authorization: d.Authorization}
		deliver = (&aqpmcp.Client{HTTP: &http.Client{}}).Deliver
	}
	body["responseId"] = uuid.Must(uuid.NewV7()).String()
	for attempt := 0; attempt < 5; attempt++ {
		if attempt > 0 && mode == "new-response-id" {
			body["responseId"] = uuid.Must(uuid.NewV7()).String()
		}
		b, _ := json.Marshal(body)
		rec, err := deliver(ctx, d, b)
		if err != nil {
			return nil, err
		}
		var rr struct {
			Retryable bool `json:"retryable"`
		}
		_ = json.Unmarshal(rec, &rr)
		if !rr.Retryable {
			fmt.Printf("%s\n", rec)
			return rec, nil
		}
		time.Sleep(200 * time.Millisecond)
	}
	return nil, fmt.Errorf("still retryable after 5 attempts")
}

// brokenModes are the hand respondent's broken modes, each run as the fixture respondent/<mode> of
// conformance/fixtures.json.
var brokenModes = []string{"new-response-id", "late", "ignore-destination", "ignore-consent-refusal", "no-authorization", "other-subject",
	"no-wait", "ignore-continuation", "wrong-binding"}

// TestBrokenRespondents requires the runner to fail exactly the requirements conformance/fixtures.json lists for
// each hand-written broken respondent, and nothing for the correct one; and every respondent fixture the file lists
// must be one run here, so the file cannot claim a failing proof nobody runs.
func TestBrokenRespondents(t *testing.T) {
	fxs, err := conformance.LoadFixtures()
	if err != nil {
		t.Fatal(err)
	}
	var listed, run []string
	for _, fx := range fxs {
		if fx.Role == "respondent" {
			listed = append(listed, fx.Name)
		}
	}
	wants := map[string][]string{"good": nil}
	for _, mode := range brokenModes {
		run = append(run, "respondent/"+mode)
		if wants[mode], err = conformance.FixtureFails("respondent/" + mode); err != nil {
			t.Fatal(err)
		}
	}
	slices.Sort(listed)
	slices.Sort(run)
	if !slices.Equal(listed, run) {
		t.Errorf("conformance/fixtures.json lists respondent fixtures %v, this test runs %v", listed, run)
	}
	for mode, want := range wants {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			recs, err := respondentrun.Run(context.Background(), respondentrun.Config{
				Command: []string{os.Args[0], handArg, mode, "{signals}", "{url}"}, Bindings: []string{https.Name}, Timeout: 30 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if got := respondentrun.Failed(recs); !slices.Equal(got, want) {
				var sb strings.Builder
				report.New("respondent", mode, time.Now(), respondentrun.Checks(recs), nil).Summary(&sb)
				t.Errorf("failed requirements %v, want %v\n%s", got, want, sb.String())
			}
		})
	}
}

// TestRunRefusesBadConfig: a command without {url}, no command, an unknown binding.
func TestRunRefusesBadConfig(t *testing.T) {
	for name, cfg := range map[string]respondentrun.Config{
		"no command":      {},
		"no url":          {Command: []string{"true"}},
		"unknown binding": {Command: []string{"true", "{url}"}, Bindings: []string{"smtp"}},
	} {
		if _, err := respondentrun.Run(context.Background(), cfg); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestNoPassWithoutEvidence: a respondent command that cannot start refuses the run at once, with one error naming
// the command; and a respondent that starts but never delivers gets no pass at all — the checks that pass when
// nothing is sent are inconclusive (skip) over a column where it never showed it can deliver, not passes (issue
// "The conformance kit sees what it claims", item 1: /no/such/cmd got 3 passing MUST checks over HTTPS).
func TestNoPassWithoutEvidence(t *testing.T) {
	_, err := respondentrun.Run(context.Background(), respondentrun.Config{Command: []string{"/no/such/cmd", "--from", "{url}"}})
	if err == nil || !strings.Contains(err.Error(), "/no/such/cmd") || !strings.Contains(err.Error(), "cannot be started") {
		t.Fatalf("a command that does not exist: err = %v, want one error naming it", err)
	}
	recs, err := respondentrun.Run(context.Background(), respondentrun.Config{Command: []string{"true", "{url}", "{signals}"},
		Bindings: []string{https.Name}, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	var skipped int
	for _, r := range recs {
		switch r.Status {
		case respondentrun.Pass:
			t.Errorf("%s / %s passed for a respondent that sends nothing: %s", r.Scenario, r.Check, r.Evidence)
		case respondentrun.Skip:
			skipped++
			if !strings.HasPrefix(r.Evidence, "inconclusive: ") {
				t.Errorf("%s / %s skipped without saying it is inconclusive: %s", r.Scenario, r.Check, r.Evidence)
			}
		}
	}
	if skipped != 4 {
		t.Errorf("%d inconclusive checks, want the 4 that pass when nothing is sent", skipped)
	}
}

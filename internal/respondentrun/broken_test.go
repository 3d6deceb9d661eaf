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
	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/internal/respondentrun"
)

// brokenEnv names the mode the test binary runs in as a respondent under test.
const brokenEnv = "AQP_TEST_RESPONDENT_MODE"

// TestMain turns the test binary into a respondent under test when brokenEnv is set: a hand-written respondent
// (https carrier and delivery only) that is correct in mode "good" and breaks one rule in each other mode.
func TestMain(m *testing.M) {
	if mode := os.Getenv(brokenEnv); mode != "" {
		if err := handRespondent(mode, os.Args[len(os.Args)-1]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// handRespondent takes the query from the AQP-Query header at url and answers "yes". Its faults, by mode:
// new-response-id retries with a fresh responseId; late answers expired queries; ignore-destination delivers
// wherever the query says, with no destination rule; ignore-consent-refusal sends its answer when the principal
// refuses; no-authorization delivers without the capability; other-subject names a subject of its own.
func handRespondent(mode, url string) error {
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
	var q struct {
		QueryID     string         `json:"queryId"`
		Subject     map[string]any `json:"subject"`
		ConsentMode string         `json:"consentMode"`
		ExpiresAt   time.Time      `json:"expiresAt"`
		Delivery    struct{ Binding, Endpoint, Operation, Authorization string }
	}
	if err := json.Unmarshal(raw, &q); err != nil {
		return err
	}
	if mode != "late" && !time.Now().Before(q.ExpiresAt) {
		return fmt.Errorf("query %s expired: dropped", q.QueryID)
	}
	if mode != "ignore-destination" && !strings.HasPrefix(q.Delivery.Endpoint, "http://127.0.0.1:") {
		return fmt.Errorf("delivery endpoint %s is not an authorised destination: dropped", q.Delivery.Endpoint)
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
			return fmt.Errorf("consent refused: nothing sent")
		}
		body["consent"] = map[string]any{"granted": true, "obtainedAt": now}
	}
	client := &https.Client{HTTP: &http.Client{}}
	d := respondent.Delivery{Binding: q.Delivery.Binding, Endpoint: q.Delivery.Endpoint, Operation: q.Delivery.Operation, Authorization: q.Delivery.Authorization}
	if mode == "no-authorization" {
		d.Authorization = ""
	}
	body["responseId"] = uuid.Must(uuid.NewV7()).String()
	for attempt := 0; attempt < 5; attempt++ {
		if attempt > 0 && mode == "new-response-id" {
			body["responseId"] = uuid.Must(uuid.NewV7()).String()
		}
		b, _ := json.Marshal(body)
		rec, err := client.Deliver(ctx, d, b)
		if err != nil {
			return err
		}
		var rr struct {
			Retryable bool `json:"retryable"`
		}
		_ = json.Unmarshal(rec, &rr)
		if !rr.Retryable {
			fmt.Printf("%s\n", rec)
			return nil
		}
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("still retryable after 5 attempts")
}

// brokenModes are the hand respondent's broken modes, each run as the fixture respondent/<mode> of
// conformance/fixtures.json.
var brokenModes = []string{"new-response-id", "late", "ignore-destination", "ignore-consent-refusal", "no-authorization", "other-subject"}

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
			t.Setenv(brokenEnv, mode)
			recs, err := respondentrun.Run(context.Background(), respondentrun.Config{
				Command: []string{os.Args[0], "{url}"}, Bindings: []string{https.Name}, Timeout: 30 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if got := respondentrun.Failed(recs); !slices.Equal(got, want) {
				var sb strings.Builder
				respondentrun.Summary(&sb, recs)
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

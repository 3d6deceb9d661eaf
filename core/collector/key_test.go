package collector_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
)

// noSecretStore is a store that cannot keep secrets: a collector given its own key must never ask for one.
type noSecretStore struct{ *memory.Store }

func (noSecretStore) Secret(context.Context, string, func() ([]byte, error)) ([]byte, error) {
	return nil, errors.New("this store keeps no secrets")
}

// TestContinuationKeyOutsideTheStore: with Config.ContinuationKey set, continuation capabilities are derived from
// it (D18's HMAC) and the store's secret is never read.
func TestContinuationKeyOutsideTheStore(t *testing.T) {
	key := []byte(strings.Repeat("k", 32))
	rules, err := collector.ParseRules([]byte(fuzzRules))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 7, 30, 17, 0, 0, 0, time.UTC)
	for _, withKey := range []bool{true, false} {
		cfg := collector.Config{Store: noSecretStore{memory.New()}, PublicURL: "https://collector.example", Endpoints: httpsOnly, Rules: rules,
			Clock: func() time.Time { return now }}
		if withKey {
			cfg.ContinuationKey = key
		}
		c, err := collector.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		req, err := c.Issue(context.Background(), []byte(draft))
		if err != nil {
			t.Fatal(err)
		}
		doc := core.Parse(core.KindRequest, req).Object()
		qid := doc["queryId"].(string)
		out := c.Submit(context.Background(), collector.Submission{Body: response(qid, "0198c7d0-2180-7729-b005-d33c99fc7452", `"yes"`),
			Authorization: doc["delivery"].(map[string]any)["authorization"].(string)})
		if !withKey {
			if out.Code != "unavailable" {
				t.Fatalf("without a key, a store that keeps no secrets: got %q, want unavailable", out.Code)
			}
			continue
		}
		if !out.Accepted {
			t.Fatalf("not accepted: %s", out.Receipt)
		}
		cont := core.Parse(core.KindReceipt, out.Receipt).Object()["continuation"].(map[string]any)
		m := hmac.New(sha256.New, key)
		m.Write([]byte("aqp continuation capability\x00" + cont["queryId"].(string)))
		want := "Bearer " + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
		if got := cont["delivery"].(map[string]any)["authorization"]; got != want {
			t.Fatalf("continuation capability %v, want %s (derived from Config.ContinuationKey)", got, want)
		}
	}
	if _, err := collector.New(collector.Config{Store: memory.New(), PublicURL: "https://c.example", Endpoints: httpsOnly, ContinuationKey: key[:16]}); err == nil ||
		!strings.Contains(err.Error(), "16 bytes") {
		t.Fatalf("a 16-byte key: %v", err)
	}
}

func TestLoadContinuationKey(t *testing.T) {
	key := []byte(strings.Repeat("\xfb", 32)) // base64url "-_…", standard base64 "+/…"
	text := base64.RawURLEncoding.EncodeToString(key)
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name, path, env string
		unsetEnv        bool
		wantErr         string
	}{
		{name: "file", path: write("ok", text+"\n")},
		{name: "file with padding", path: write("padded", base64.URLEncoding.EncodeToString(key))},
		{name: "file wins over the environment", path: write("ok2", text), env: "garbage"},
		{name: "environment", env: text},
		{name: "neither", unsetEnv: true},
		{name: "missing file", path: filepath.Join(dir, "absent"), wantErr: "continuation key file"},
		{name: "standard base64", path: write("std", base64.StdEncoding.EncodeToString(key)), wantErr: "not standard base64"},
		{name: "short key", env: base64.RawURLEncoding.EncodeToString(key[:31]), wantErr: "AQP_CONTINUATION_KEY: continuation key is 31 bytes; it must be 32"},
		{name: "empty environment", env: "", wantErr: "AQP_CONTINUATION_KEY: continuation key is empty"},
		{name: "not base64", path: write("bad", "not base64!"), wantErr: "not base64url"},
		{name: "large file", path: write("large", strings.Repeat("A", 2000)), wantErr: "larger than 1024 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.unsetEnv {
				t.Setenv(collector.ContinuationKeyEnv, "")
				os.Unsetenv(collector.ContinuationKeyEnv)
			} else {
				t.Setenv(collector.ContinuationKeyEnv, tc.env)
			}
			got, err := collector.LoadContinuationKey(tc.path)
			switch {
			case tc.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one saying %q", err, tc.wantErr)
				}
			case err != nil:
				t.Fatal(err)
			case tc.unsetEnv && got != nil:
				t.Fatalf("key %x with no file and no environment", got)
			case !tc.unsetEnv && string(got) != string(key):
				t.Fatalf("key %x, want %x", got, key)
			}
		})
	}
}

// TestSchemaCompiledOncePerQuery: a query's jsonSchema is compiled when the query is issued and once more for all
// the responses the collector checks against it (the parsed request, with its compiled contract, is cached).
func TestSchemaCompiledOncePerQuery(t *testing.T) {
	f := newFixture(t, "")
	q, auth := f.issue(t, hostileDraft(hostileDrafts["closed"]))
	before := core.ContractCompiles()
	for i := 0; i < 20; i++ {
		body := response(q, "0198c7d0-2180-7729-b005-d33c99fc7452", `{"x":1}`)
		if out := f.c.Submit(context.Background(), collector.Submission{Body: body, Authorization: auth}); out.Code != "answer_invalid" {
			t.Fatalf("submission %d: %q %s", i, out.Code, out.Receipt)
		}
	}
	if n := core.ContractCompiles() - before; n != 1 {
		t.Fatalf("20 submissions compiled the query's jsonSchema %d times, want 1", n)
	}
}

// TestContinuationSubjectIsGlobal: D23 — the collector writes a continuation's subject as
// {kind: response, id: <responseId>, idScope: global, protocol: aqp}.
func TestContinuationSubjectIsGlobal(t *testing.T) {
	f := newFixture(t, fuzzRules)
	q, auth := f.issue(t, draft)
	out := f.c.Submit(context.Background(), collector.Submission{Body: response(q, "0198c7d0-2180-7729-b005-d33c99fc7452", `"yes"`), Authorization: auth})
	cont, _ := core.Parse(core.KindReceipt, out.Receipt).Object()["continuation"].(map[string]any)
	want := map[string]any{"kind": "response", "id": "0198c7d0-2180-7729-b005-d33c99fc7452", "idScope": "global", "protocol": "aqp"}
	if got, _ := cont["subject"].(map[string]any); !core.EqualJSON(got, want) {
		t.Fatalf("continuation subject %v, want %v", got, want)
	}
}

package collector_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteFuzzSeeds writes the committed seed corpus of FuzzSubmit (testdata/fuzz/FuzzSubmit) when
// AQP_WRITE_FUZZ_SEEDS is set: the hostile submissions of TestHostileSubmissionsGetSchemaValidReceipts, aimed at
// the fuzzed collector's queries, so that plain `go test` replays them through every FuzzSubmit assertion.
func TestWriteFuzzSeeds(t *testing.T) {
	if os.Getenv("AQP_WRITE_FUZZ_SEEDS") == "" {
		t.Skip("set AQP_WRITE_FUZZ_SEEDS=1 to rewrite testdata/fuzz/FuzzSubmit")
	}
	id := func(q string) string {
		for i, f := range fuzzFormats {
			if f == q {
				return "0198c7cb-1af1-7e79-bd7f-00000000000" + itoa(i+1)
			}
		}
		panic(q)
	}
	const rid = "0198c7d0-2180-7729-b005-d33c99fc7452"
	body := func(q, answer string, extra ...string) string {
		b := string(response(id(q), rid, answer))
		for _, e := range extra {
			b = strings.TrimSuffix(b, "}") + "," + e + "}"
		}
		return b
	}
	many := make([]string, 500)
	for i := range many {
		many[i] = member("m"+itoa(i), i)
	}
	seeds := map[string]string{
		"long-member-name":        body("text", `"a"`, member(strings.Repeat("a", 3000), 1)),
		"escaped-member-name":     body("text", `"a"`, member(strings.Repeat("~/", 1000), 1)),
		"deep-answer":             body("structured", nested(1500, "1")),
		"long-property-name":      body("closed", `{`+member(strings.Repeat("p", 3000), 1)+`}`),
		"escaped-property-name":   body("closed", `{`+member(strings.Repeat("/~", 1100), 1)+`}`),
		"huge-exponent":           body("number", "1e1000001"),
		"huge-number":             body("number", "1e400"),
		"many-members":            body("text", `"a"`, many...),
		"uppercase-ids":           strings.ToUpper(body("choice", `"yes"`)),
		"accepted-text":           body("text", `"short"`),
		"accepted-structured":     body("structured", `[[],[[]]]`),
		"unsupported-version":     strings.Replace(body("text", `"a"`), "2026-07-30", "2025-01-01", 1),
		"no-ids":                  `{"answer":1}`,
		"not-json":                `{"queryId":`,
		"unknown-query":           body("text", `"a"`, member("explanation", "x")),
		"answer-over-maxLength":   body("text", `"`+strings.Repeat("é", 11)+`"`),
		"control-character-names": body("text", `"a"`, `"\u0000\n\"/~":1`),
	}
	seeds["unknown-query"] = strings.Replace(seeds["unknown-query"], id("text"), "0198c7cb-1af1-7e79-bd7f-0000000000ff", 1)
	dir := filepath.Join("testdata", "fuzz", "FuzzSubmit")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, b := range seeds {
		for auth := uint8(0); auth < 4; auth++ {
			if auth > 1 && !strings.HasPrefix(name, "accepted") {
				continue
			}
			data := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\nuint8(%d)\n", b, auth)
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-auth%d", name, auth)), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

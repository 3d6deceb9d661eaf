package targets

import (
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
	"github.com/agentqueryprotocol/aqp-go/internal/httpio"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// HTTPSSurfaces are the HTTPS column's pinned surfaces: its refusals of what is not a submission — a wrong media type
// 415, an oversized body 413, a body without readable ids 400 — each as application/problem+json (RFC 9457).
var HTTPSSurfaces = []harness.Surface{{Name: "https-refusals", Requirements: []string{ReqHTTPSProblem}, Read: readRefusals}}

func readRefusals(ctx context.Context, base string, hc *http.Client) error {
	for _, tc := range []struct {
		what, contentType, body string
		status                  int
	}{
		{"a text/plain body", "text/plain", "hello", http.StatusUnsupportedMediaType},
		{"a body over the bound", "application/json", `"` + strings.Repeat("a", httpio.MaxBody+1) + `"`, http.StatusRequestEntityTooLarge},
		{"a body without readable ids", "application/json", `{}`, http.StatusBadRequest},
	} {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(base, "/")+spec.HTTPSPath, strings.NewReader(tc.body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", tc.contentType)
		req.Header.Set("Authorization", "Bearer conformance-surface")
		resp, err := hc.Do(req)
		if err != nil {
			return fmt.Errorf("POST %s with %s: %v", spec.HTTPSPath, tc.what, err)
		}
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
		if resp.StatusCode != tc.status || mt != "application/problem+json" {
			return fmt.Errorf("POST %s with %s: HTTP %d %q, want %d application/problem+json: %.200s", spec.HTTPSPath, tc.what, resp.StatusCode, mt, tc.status, b)
		}
	}
	return nil
}

package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
)

// ReceiptCode reads a receipt's error.code ("" for an accepted receipt); ok is false when the bytes are not a
// receipt. Targets use it to check their wire mapping for the code.
func ReceiptCode(receipt []byte) (core.Code, bool) {
	if receipt == nil {
		return "", false
	}
	var r struct {
		Status string `json:"status"`
		Error  *struct {
			Code core.Code `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(receipt, &r) != nil || r.Status == "" {
		return "", false
	}
	if r.Error == nil {
		return "", true
	}
	return r.Error.Code, true
}

// IssueOverAdminAPI issues a draft through a collector's admin API (POST /admin/v1/queries with the admin token)
// and returns the QueryRequest JSON: how a binding's target issues its scenario's queries over HTTP. A 400 problem
// listing errors is returned as a *collector.IssueError, so a scenario can compare the refusal.
func IssueOverAdminAPI(ctx context.Context, hc *http.Client, baseURL, adminToken string, draft []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, baseURL+"/admin/v1/queries", bytes.NewReader(draft))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+adminToken)
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusBadRequest {
		// A refused draft: the problem's errors, when it lists them, are the refusal a scenario can compare.
		var p struct {
			Errors []core.Error `json:"errors"`
		}
		if json.Unmarshal(body, &p) == nil && len(p.Errors) > 0 {
			return nil, &collector.IssueError{Errors: p.Errors}
		}
	}
	if resp.StatusCode != http.StatusCreated {
		return nil, fmt.Errorf("POST /admin/v1/queries: %s: %s", resp.Status, body)
	}
	return body, nil
}

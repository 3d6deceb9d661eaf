package service

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/gen/api"
	"github.com/agentqueryprotocol/aqp-go/internal/httpio"
)

// AdminClient issues queries through a remote collector's admin API (POST /admin/v1/queries), with the generated
// client: the collector.Issuer for programs that ask questions of a collector they do not run in-process.
type AdminClient struct {
	client *api.Client
}

var _ collector.Issuer = (*AdminClient)(nil)

// NewAdminClient returns a client of the collector at baseURL (its scheme, host and any path prefix) holding the
// admin token. httpClient nil uses one with a 30-second timeout; every call is also bounded by its context.
func NewAdminClient(baseURL, adminToken string, httpClient *http.Client) (*AdminClient, error) {
	if adminToken == "" {
		return nil, errors.New("service: an admin token is required to issue queries (AQP_ADMIN_TOKEN)")
	}
	if httpClient == nil {
		httpClient = &http.Client{Timeout: 30 * time.Second}
	}
	c, err := api.NewClient(strings.TrimSuffix(baseURL, "/"), api.WithHTTPClient(httpClient),
		api.WithRequestEditorFn(func(_ context.Context, r *http.Request) error {
			r.Header.Set("Authorization", "Bearer "+adminToken)
			return nil
		}))
	if err != nil {
		return nil, fmt.Errorf("service: admin client for %q: %w", baseURL, err)
	}
	return &AdminClient{client: c}, nil
}

// Issue posts the draft and returns the QueryRequest JSON as the collector wrote it. A refused draft (400) is an
// *collector.IssueError carrying the collector's errors, exactly as an in-process Collector returns it; any other
// failure says what the collector answered.
func (a *AdminClient) Issue(ctx context.Context, draft []byte) ([]byte, error) {
	resp, err := a.client.CreateQueryWithBody(ctx, "application/json", bytes.NewReader(draft))
	if err != nil {
		return nil, fmt.Errorf("service: issuing a query: %w", err)
	}
	defer resp.Body.Close()
	body, err := readAll(resp)
	if err != nil {
		return nil, err
	}
	switch resp.StatusCode {
	case http.StatusCreated:
		return body, nil
	case http.StatusBadRequest:
		var p api.Problem
		if json.Unmarshal(body, &p) == nil && p.Errors != nil {
			ie := &collector.IssueError{}
			for _, e := range *p.Errors {
				ie.Errors = append(ie.Errors, core.Error{Code: core.Code(e.Code), Pointer: e.Pointer, Keyword: e.Keyword, Message: e.Message})
			}
			return nil, ie
		}
	}
	return nil, fmt.Errorf("service: issuing a query: the collector answered %s: %.300s", resp.Status, body)
}

func readAll(resp *http.Response) ([]byte, error) {
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(http.MaxBytesReader(nil, resp.Body, httpio.MaxBody)); err != nil {
		return nil, fmt.Errorf("service: reading the collector's answer: %w", err)
	}
	return buf.Bytes(), nil
}

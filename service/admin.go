package service

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/gen/api"
	"github.com/agentqueryprotocol/aqp-go/internal/httpio"
	"github.com/google/uuid"
)

// CreateQuery is POST /admin/v1/queries: issue a draft, answer 201 with the QueryRequest (the only response that
// ever shows the query's capability).
func (s *Service) CreateQuery(w http.ResponseWriter, r *http.Request) {
	if !s.authorizedAdmin(w, r) {
		return
	}
	body, berr := httpio.ReadJSONBody(w, r)
	if berr != nil {
		return
	}
	req, err := s.c.Issue(r.Context(), body)
	var ie *collector.IssueError
	switch {
	case errors.As(err, &ie):
		httpio.WriteProblem(w, http.StatusBadRequest, "Invalid query draft", "the draft breaks these rules", ie.Errors)
		return
	case err != nil:
		s.log.Error("service: issuing a query", "err", err)
		httpio.WriteProblem(w, http.StatusServiceUnavailable, "Store unavailable", "the query could not be stored; try again", nil)
		return
	}
	var id struct {
		QueryID string `json:"queryId"`
	}
	_ = json.Unmarshal(req, &id)
	w.Header().Set("Location", "/admin/v1/queries/"+id.QueryID)
	httpio.WriteJSON(w, http.StatusCreated, req)
}

// toState renders a query as the admin API shows it. The documents stay the JSON the collector stored (D19).
func toState(q collector.QueryState) (api.QueryState, error) {
	id, err := uuid.Parse(q.Query.QueryID)
	if err != nil {
		return api.QueryState{}, fmt.Errorf("stored queryId %q: %w", q.Query.QueryID, err)
	}
	out := api.QueryState{QueryID: id, State: api.QueryStateName(q.State), CreatedAt: q.Query.CreatedAt, Request: q.Query.Request}
	if a := q.Acceptance; a != nil {
		resp, rec := json.RawMessage(a.Response), json.RawMessage(a.Receipt)
		out.Response, out.Receipt = &resp, &rec
	}
	return out, nil
}

// GetQuery is GET /admin/v1/queries/{queryId}.
func (s *Service) GetQuery(w http.ResponseWriter, r *http.Request, queryID uuid.UUID) {
	if !s.authorizedAdmin(w, r) {
		return
	}
	q, err := s.c.Lookup(r.Context(), queryID.String())
	switch {
	case errors.Is(err, collector.ErrNotFound):
		httpio.WriteProblem(w, http.StatusNotFound, "Unknown query", "no query "+queryID.String(), nil)
		return
	case err != nil:
		s.log.Error("service: loading a query", "err", err)
		httpio.WriteProblem(w, http.StatusServiceUnavailable, "Store unavailable", "try again", nil)
		return
	}
	st, err := toState(q)
	if err != nil {
		s.log.Error("service: rendering a query", "err", err)
		httpio.WriteProblem(w, http.StatusInternalServerError, "Corrupt query", err.Error(), nil)
		return
	}
	b, err := json.Marshal(st)
	if err != nil {
		s.log.Error("service: rendering a query", "err", err)
		httpio.WriteProblem(w, http.StatusInternalServerError, "Corrupt query", "the stored documents are not JSON", nil)
		return
	}
	httpio.WriteJSON(w, http.StatusOK, b)
}

// ListQueries is GET /admin/v1/queries?state=&limit=&cursor=.
func (s *Service) ListQueries(w http.ResponseWriter, r *http.Request, params api.ListQueriesParams) {
	if !s.authorizedAdmin(w, r) {
		return
	}
	var state collector.State
	if params.State != nil {
		state = collector.State(*params.State)
		switch state {
		case collector.StateOpen, collector.StateAnswered, collector.StateExpired:
		default:
			httpio.WriteProblem(w, http.StatusBadRequest, "Bad state", "state must be open, answered or expired", nil)
			return
		}
	}
	limit := 50
	if params.Limit != nil {
		limit = *params.Limit
		if limit < 1 || limit > collector.MaxPageSize {
			httpio.WriteProblem(w, http.StatusBadRequest, "Bad limit", "limit must be 1-"+strconv.Itoa(collector.MaxPageSize), nil)
			return
		}
	}
	after := ""
	if params.Cursor != nil {
		after = strings.TrimSpace(*params.Cursor)
		if !core.IsUUID(after) {
			httpio.WriteProblem(w, http.StatusBadRequest, "Bad cursor", "cursor must be the nextCursor of a previous page", nil)
			return
		}
	}
	rows, next, err := s.c.List(r.Context(), state, after, limit)
	if err != nil {
		s.log.Error("service: listing queries", "err", err)
		httpio.WriteProblem(w, http.StatusServiceUnavailable, "Store unavailable", "try again", nil)
		return
	}
	page := api.QueryPage{Items: make([]api.QueryState, len(rows))}
	if next != "" {
		page.NextCursor = &next
	}
	for i, q := range rows {
		if page.Items[i], err = toState(q); err != nil {
			s.log.Error("service: rendering a query", "err", err)
			httpio.WriteProblem(w, http.StatusInternalServerError, "Corrupt query", err.Error(), nil)
			return
		}
	}
	b, err := json.Marshal(page)
	if err != nil {
		s.log.Error("service: rendering queries", "err", err)
		httpio.WriteProblem(w, http.StatusInternalServerError, "Corrupt query", "the stored documents are not JSON", nil)
		return
	}
	httpio.WriteJSON(w, http.StatusOK, b)
}

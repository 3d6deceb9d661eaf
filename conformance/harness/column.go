package harness

import (
	"context"
	"net/http"
	"slices"
	"strings"
)

// ColumnClient submits one response body with an Authorization header value over one column and returns what came
// back, having checked that column's wire form (a failed wire check is a *RuleError naming the requirement it
// breaks). conformance/targets provides one for every column, for a local scenario target and for any running
// collector alike. It is not a collector.Submitter (the one seam a binding hands a Submission to): it stands on
// the far side of the wire, as a respondent does.
type ColumnClient interface {
	Submit(ctx context.Context, body []byte, authorization string) (Result, error)
}

// Column is one binding at one protocol generation over one transport: a column of the one table every collector
// scenario runs across ("https"; "mcp-2026-07-28", "mcp-2025-11-25"; "a2a-1.0-jsonrpc", "a2a-1.0-http-json",
// "a2a-1.0-grpc", "a2a-0.3-jsonrpc"). conformance/targets lists every binding's columns;
// the harness and both runners iterate columns, never bindings, so a new protocol generation is a new column and
// nothing else.
type Column struct {
	// Name is the column's name, as `aqp conformance … --binding` and the reports spell it.
	Name string
	// Binding is the binding the column belongs to, as a query's delivery.binding names it.
	Binding string
	// Carries lists the scenario requirements (conformance.Requires*) the column's transport can carry.
	Carries []string
	// Requirements lists the requirements.json ids the column's wire checks enforce on every submission.
	Requirements []string
	// Target builds the column's local scenario target: the scenario's collector served as `aqp serve` serves
	// it, reached over this column.
	Target Factory
	// Remote returns the column's submitter to the collector whose base URL is baseURL, sending with hc.
	Remote func(baseURL string, hc *http.Client) ColumnClient
	// Surfaces are the pinned surfaces this column serves beside submitting (its agent card, its tool list, its
	// refusals), which a runner reads once per run of the column.
	Surfaces []Surface
}

// SelectColumns picks columns by name: "all" (or "") is every column, a binding's name ("mcp") every column of that
// binding, and a column's own name that column; several selectors may be given, comma-separated. ok is false
// when a selector matches no column.
func SelectColumns(columns []Column, selector string) (picked []Column, ok bool) {
	if selector == "" || selector == "all" {
		return columns, true
	}
	for _, sel := range strings.Split(selector, ",") {
		sel = strings.TrimSpace(sel)
		matched := false
		for _, c := range columns {
			if c.Name == sel || c.Binding == sel {
				matched = true
				if !slices.ContainsFunc(picked, func(p Column) bool { return p.Name == c.Name }) {
					picked = append(picked, c)
				}
			}
		}
		if !matched {
			return nil, false
		}
	}
	return picked, true
}

// ColumnNames lists the columns' names and the bindings they belong to, for a usage message or a completion.
func ColumnNames(columns []Column) []string {
	var names []string
	for _, c := range columns {
		if !slices.Contains(names, c.Binding) {
			names = append(names, c.Binding)
		}
	}
	for _, c := range columns {
		if !slices.Contains(names, c.Name) {
			names = append(names, c.Name)
		}
	}
	return names
}

package core

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// Pair is any subset of the documents of one exchange: the request, a response to it, the receipt a collector
// returned for that response, and the receipt a duplicate submission of the same response got. Nil members are
// simply not checked.
type Pair struct {
	// Request is the QueryRequest.
	Request *Document
	// Response is a QueryResponse to it.
	Response *Document
	// Receipt is the receipt the collector returned for Response.
	Receipt *Document
	// Duplicate is the receipt a duplicate submission of Response got.
	Duplicate *Document
}

// CheckPair runs the paired checks of §4, in their pinned order, over the documents present. A check runs only
// when every document it reads is present and schema-valid; standalone failures are the caller's to report (see
// ValidatePair). The result is empty when every check that could run passed.
func CheckPair(p Pair) Errors {
	req, resp, rec, dup := usable(p.Request), usable(p.Response), usable(p.Receipt), usable(p.Duplicate)
	var out Errors
	if req != nil && resp != nil {
		out = append(out, queryMismatch(req, RoleRequest, resp)...)
	}
	if resp != nil && rec != nil {
		out = append(out, queryMismatch(rec, RoleReceipt, resp)...)
		if !sameUUID(s(resp, "responseId"), s(rec, "responseId")) {
			out = append(out, Error{Code: CodeResponseMismatch, Document: RoleReceipt, Pointer: "/responseId", Keyword: KeywordMember,
				Message: fmt.Sprintf("receipt responseId %s differs from the response's %s", s(rec, "responseId"), s(resp, "responseId"))})
		}
	}
	if req != nil && resp != nil {
		out = append(out, CheckResponse(p.Request, p.Response)...)
	}
	if resp != nil && rec != nil {
		out = append(out, continuationMismatch(resp, rec)...)
	}
	if rec != nil && dup != nil {
		out = append(out, receiptNotEquivalent(rec, dup)...)
	}
	return out
}

// ValidatePair reports every document's standalone failures (each tagged with its role) followed by the paired
// checks; it is what `aqp validate --pair` prints.
func ValidatePair(p Pair) Errors {
	var out Errors
	for _, x := range []struct {
		role Role
		doc  *Document
	}{{RoleRequest, p.Request}, {RoleResponse, p.Response}, {RoleReceipt, p.Receipt}, {RoleDuplicate, p.Duplicate}} {
		if x.doc == nil {
			continue
		}
		for _, e := range x.doc.Errors {
			e.Document = x.role
			out = append(out, e)
		}
	}
	return append(out, CheckPair(p)...)
}

// CheckResponse runs the request–response checks after the identifiers match: subject, respondent, answer,
// consent and expiry, in that order. This is the part of §4 a collector applies to a submission; both documents
// must be schema-valid.
func CheckResponse(request, response *Document) Errors {
	req, resp := usable(request), usable(response)
	if req == nil || resp == nil {
		return nil
	}
	var out Errors
	if !subjectsMatch(o(req, "subject"), o(resp, "subject")) {
		out = append(out, Error{Code: CodeSubjectMismatch, Document: RoleResponse, Pointer: "/subject", Keyword: KeywordMember,
			Message: fmt.Sprintf("response subject %s does not match the request's %s (kind, id and protocol must be equal; idScope when both carry it)",
				display(resp["subject"]), display(req["subject"]))})
	}
	if want := s(req, "requestedRespondent"); want != "" && want != "any" {
		if got := s(o(resp, "respondent"), "kind"); got != want {
			out = append(out, Error{Code: CodeRespondentMismatch, Document: RoleResponse, Pointer: "/respondent/kind", Keyword: KeywordMember,
				Message: fmt.Sprintf("the request asks for a respondent of kind %q; respondent.kind is %q", want, got)})
		}
	}
	if c, cerr := request.requestContract(); cerr == nil {
		response.materialize()
		out = append(out, c.check(resp["answer"])...)
	}
	mode := s(req, "consentMode")
	consent := o(resp, "consent")
	switch {
	case (mode == "ask_once" || mode == "ask_always") && consent == nil:
		out = append(out, Error{Code: CodeConsentRequired, Document: RoleResponse, Pointer: "/consent", Keyword: KeywordMember,
			Message: fmt.Sprintf("the request's consentMode is %s: the response must carry consent", mode)})
	case consent != nil:
		scope, hasScope := consent["scope"].(string)
		switch {
		case mode == "ask_once" && scope != s(req, "consentScope"):
			got := "absent"
			if hasScope {
				got = display(scope)
			}
			out = append(out, Error{Code: CodeConsentMismatch, Document: RoleResponse, Pointer: "/consent/scope", Keyword: KeywordMember,
				Message: fmt.Sprintf("consentMode is ask_once: consent.scope must equal the request's consentScope %s, got %s", display(s(req, "consentScope")), got)})
		case mode == "ask_always" && hasScope:
			out = append(out, Error{Code: CodeConsentMismatch, Document: RoleResponse, Pointer: "/consent/scope", Keyword: KeywordMember,
				Message: "consentMode is ask_always: consent is for this query alone, so consent.scope must be absent"})
		}
		if after(s(consent, "obtainedAt"), s(resp, "createdAt")) {
			out = append(out, Error{Code: CodeConsentMismatch, Document: RoleResponse, Pointer: "/consent/obtainedAt", Keyword: KeywordMember,
				Message: fmt.Sprintf("consent.obtainedAt %s is after the response's createdAt %s", s(consent, "obtainedAt"), s(resp, "createdAt"))})
		}
	}
	if after(s(resp, "createdAt"), s(req, "expiresAt")) {
		out = append(out, Error{Code: CodeExpired, Document: RoleResponse, Pointer: "/createdAt", Keyword: KeywordMember,
			Message: fmt.Sprintf("the response was created at %s, after the query expired at %s", s(resp, "createdAt"), s(req, "expiresAt"))})
	}
	return out
}

func queryMismatch(other map[string]any, role Role, resp map[string]any) Errors {
	if sameUUID(s(other, "queryId"), s(resp, "queryId")) {
		return nil
	}
	doc, p := RoleResponse, "/queryId"
	if role == RoleReceipt {
		doc = RoleReceipt
	}
	return Errors{{Code: CodeQueryMismatch, Document: doc, Pointer: p, Keyword: KeywordMember,
		Message: fmt.Sprintf("response queryId %s differs from the %s's %s", s(resp, "queryId"), role, s(other, "queryId"))}}
}

func continuationMismatch(resp, rec map[string]any) Errors {
	cont := o(rec, "continuation")
	if cont == nil {
		return nil
	}
	fail := func(p, format string, args ...any) Error {
		return Error{Code: CodeContinuationMismatch, Document: RoleReceipt, Pointer: p, Keyword: KeywordMember, Message: fmt.Sprintf(format, args...)}
	}
	if s(rec, "status") != "accepted" {
		return Errors{fail("/continuation", "a %s receipt must not carry a continuation", s(rec, "status"))}
	}
	var out Errors
	if sameUUID(s(cont, "queryId"), s(resp, "queryId")) {
		out = append(out, fail("/continuation/queryId", "the continuation must be a new query; its queryId is the answered query's %s", s(resp, "queryId")))
	}
	sub := o(cont, "subject")
	if s(sub, "kind") != "response" || !sameUUID(s(sub, "id"), s(resp, "responseId")) || s(sub, "protocol") != "aqp" {
		out = append(out, fail("/continuation/subject",
			"the continuation's subject must be {kind: response, id: %s, protocol: aqp}, got %s", s(resp, "responseId"), display(cont["subject"])))
	}
	if !after(s(cont, "expiresAt"), s(rec, "receivedAt")) {
		out = append(out, fail("/continuation/expiresAt", "the continuation's expiresAt %s must be after the receipt's receivedAt %s", s(cont, "expiresAt"), s(rec, "receivedAt")))
	}
	return out
}

func receiptNotEquivalent(rec, dup map[string]any) Errors {
	var out Errors
	for _, m := range []string{"status", "retryable", "queryId", "responseId"} {
		same := reflect.DeepEqual(rec[m], dup[m])
		if m == "queryId" || m == "responseId" {
			same = sameUUID(s(rec, m), s(dup, m)) // D21: 0198C7CB-… and 0198c7cb-… are one id
		}
		if !same {
			out = append(out, Error{Code: CodeReceiptNotEquivalent, Document: RoleDuplicate, Pointer: "/" + m, Keyword: KeywordMember,
				Message: fmt.Sprintf("the duplicate's %s is %s, the receipt's %s", m, display(dup[m]), display(rec[m]))})
		}
	}
	if a, b := s(o(rec, "error"), "code"), s(o(dup, "error"), "code"); a != b {
		out = append(out, Error{Code: CodeReceiptNotEquivalent, Document: RoleDuplicate, Pointer: "/error/code", Keyword: KeywordMember,
			Message: fmt.Sprintf("the duplicate's error.code is %q, the receipt's %q", b, a)})
	}
	if !jsonEqual(rec["continuation"], dup["continuation"]) {
		out = append(out, Error{Code: CodeReceiptNotEquivalent, Document: RoleDuplicate, Pointer: "/continuation", Keyword: KeywordMember,
			Message: "the duplicate's continuation differs from the receipt's: every duplicate must carry the same continuation"})
	}
	return out
}

// sameUUID compares two UUIDs as RFC 4122 does: hex digits are case-insensitive on input (D21).
func sameUUID(a, b string) bool { return strings.EqualFold(a, b) }

// subjectsMatch applies D3: kind, id and protocol equal; idScope compared only when both carry it.
func subjectsMatch(a, b map[string]any) bool {
	for _, m := range []string{"kind", "id", "protocol"} {
		if !reflect.DeepEqual(a[m], b[m]) {
			return false
		}
	}
	sa, okA := a["idScope"]
	sb, okB := b["idScope"]
	return !okA || !okB || sa == sb
}

// after reports whether date-time a is strictly after date-time b; unparsable values (only possible in documents
// that failed validation) compare as not after.
func after(a, b string) bool {
	ta, errA := ParseDateTime(a)
	tb, errB := ParseDateTime(b)
	return errA == nil && errB == nil && ta.After(tb)
}

// jsonEqual compares two decoded JSON values, numbers by exact decimal value.
func jsonEqual(a, b any) bool {
	switch x := a.(type) {
	case json.Number:
		y, ok := b.(json.Number)
		return ok && numbersEqual(x, y)
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !jsonEqual(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

func usable(d *Document) map[string]any {
	if d == nil || !d.Valid() {
		return nil
	}
	return d.Object()
}

func s(m map[string]any, k string) string { v, _ := m[k].(string); return v }

func o(m map[string]any, k string) map[string]any { v, _ := m[k].(map[string]any); return v }

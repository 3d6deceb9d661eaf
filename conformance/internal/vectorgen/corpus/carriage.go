package corpus

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// cv is one carriage vector: a carried form of queries on one binding (§6) and what a respondent takes from it.
type cv struct {
	name, desc string
	binding    string
	headers    []header // https
	toolResult object   // mcp
	message    object   // a2a, on a Message
	task       object   // a2a, on a Task
	queries    []any
	dropped    []drop
}

type header struct{ name, value string }

// drop is one entry a respondent must drop: its index and the rule it breaks (core.CarriageRule).
type drop struct {
	index int
	rule  core.CarriageRule
}

// valid is the verdict the loader requires: at least one query kept and nothing dropped.
func (v cv) valid() bool { return len(v.queries) > 0 && len(v.dropped) == 0 }

// carriageRequirement is what every vector of a binding proves: how queries travel over it. Every vector also
// proves AQP-D30, how a respondent reads them.
var carriageRequirement = map[string]string{
	"https": "AQP-BIND-HTTPS-QUERY-HEADER",
	"mcp":   "AQP-BIND-MCP-QUERIES",
	"a2a":   "AQP-BIND-A2A-QUERIES",
}

func (v cv) render() object {
	o := obj("name", v.name, "description", v.desc, "requirements", strs([]string{carriageRequirement[v.binding], "AQP-D30"}), "binding", v.binding)
	switch {
	case v.headers != nil:
		hs := make([]any, len(v.headers))
		for i, h := range v.headers {
			hs[i] = obj("name", h.name, "value", h.value)
		}
		o = append(o, member{"headers", hs})
	case v.toolResult != nil:
		o = append(o, member{"toolResult", v.toolResult})
	case v.message != nil:
		o = append(o, member{"message", v.message})
	case v.task != nil:
		o = append(o, member{"task", v.task})
	}
	queries := v.queries
	if queries == nil {
		queries = []any{}
	}
	o = append(o, member{"valid", v.valid()}, member{"queries", queries})
	if len(v.dropped) > 0 {
		ds := make([]any, len(v.dropped))
		for i, d := range v.dropped {
			ds[i] = obj("index", d.index, "rule", string(d.rule))
		}
		o = append(o, member{"dropped", ds})
	}
	return o
}

// canonicalJSON is the compact JSON this implementation's encoders write (core.CompactJSON: members sorted, no
// whitespace), so that a valid vector's header text is exactly what https.Attach writes.
func canonicalJSON(v any) []byte {
	val, err := core.DecodeJSON(render(v))
	if err != nil {
		panic(err)
	}
	return core.CompactJSON(val)
}

// b64 is the AQP-Query text of some bytes: base64url without padding.
func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

// queryHeader is the AQP-Query field line for a request, as this implementation writes it.
func queryHeader(v any) header { return header{spec.QueryHeader, b64(canonicalJSON(v))} }

// second is another valid query, distinct from request(): the minimal request with its own queryId.
func second() any { return with(minimalRequest(), set("/queryId", otherID)) }

func httpsCarriageVectors() []cv {
	one := canonicalJSON(request())
	text := b64(one)
	if len(one)%3 == 0 {
		panic("carriage: the base request's length is a multiple of 3, so its base64 has no padding and no spare bits to test")
	}
	padded := base64.URLEncoding.EncodeToString(one)
	// Non-ASCII text gives the bytes whose base64 needs the two characters the alphabets differ in.
	utf8Prompt := with(request(), set("/prompt", "Hat dieses Werkzeugergebnis die Frage vollständig beantwortet? ✓"))
	standard := base64.RawStdEncoding.EncodeToString(canonicalJSON(utf8Prompt))
	if !strings.ContainsAny(standard, "+/") {
		panic("carriage: the UTF-8 request's standard base64 holds neither + nor /")
	}
	// The last character carries 2 or 4 bits of the last byte and zeros after them; the next character of the
	// alphabet sets a spare bit, which a lax decoder ignores.
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	spare := text[:len(text)-1] + string(alphabet[strings.IndexByte(alphabet, text[len(text)-1])+1])
	var indented bytes.Buffer
	if err := json.Indent(&indented, one, "", "  "); err != nil {
		panic(err)
	}
	h := func(hs ...header) []header { return hs }
	v := func(value string) header { return header{spec.QueryHeader, value} }
	return []cv{
		{name: "carriage/https/one-query-one-header", binding: "https",
			desc:    "One AQP-Query response header holding the unpadded base64url of the query's compact JSON (§6): the respondent takes the query.",
			headers: h(queryHeader(request())), queries: []any{request()}},
		{name: "carriage/https/two-queries-two-headers-in-order", binding: "https",
			desc:    "One header per query: two field lines carry two queries, taken in header order.",
			headers: h(queryHeader(request()), queryHeader(second())), queries: []any{request(), second()}},
		{name: "carriage/https/header-name-is-case-insensitive", binding: "https",
			desc:    "HTTP field names are case-insensitive (HTTP/2 and HTTP/3 send them in lower case): aqp-query is AQP-Query.",
			headers: h(header{strings.ToLower(spec.QueryHeader), text}), queries: []any{request()}},
		{name: "carriage/https/members-in-any-order", binding: "https",
			desc:    "Compact JSON needs no member order: the query's members as the Quickstart writes them (not sorted) are the same query. An encoder's text need not be byte-identical to another's.",
			headers: h(v(b64([]byte(compact(request()))))), queries: []any{request()}},
		{name: "carriage/https/prompt-in-utf-8", binding: "https",
			desc:    "The JSON is UTF-8 before it is encoded: a prompt with non-ASCII characters travels as their UTF-8 bytes, not as \\u escapes the sender had to add.",
			headers: h(queryHeader(utf8Prompt)), queries: []any{utf8Prompt}},
		{name: "carriage/https/field-lines-joined-by-an-intermediary-are-two-queries", binding: "https",
			desc:    "An intermediary may join field lines of one name into one, comma-separated (RFC 9110 §5.3); base64url holds no comma, so a respondent splits the value as an HTTP list and takes both queries.",
			headers: h(v(queryHeader(request()).value + ", " + queryHeader(second()).value)), queries: []any{request(), second()}},
		{name: "carriage/https/padded-base64url-is-dropped", binding: "https",
			desc:    "§6 carries base64url without padding: a value ending in = padding is not one, and the respondent drops it rather than guess.",
			headers: h(v(padded)), queries: []any{}, dropped: []drop{{0, core.CarriageBase64URL}}},
		{name: "carriage/https/standard-alphabet-is-dropped", binding: "https",
			desc:    "The standard base64 alphabet's + and / are not base64url's - and _: a value in the standard alphabet (here of a query with a German prompt, whose UTF-8 bytes need them) is dropped.",
			headers: h(v(standard)), queries: []any{}, dropped: []drop{{0, core.CarriageBase64URL}}},
		{name: "carriage/https/space-inside-the-value-is-dropped", binding: "https",
			desc:    "Whitespace is not in the base64url alphabet: a value with a space inside (a sender wrapping a long line) is dropped, not read around.",
			headers: h(v(text[:len(text)/2] + " " + text[len(text)/2:])), queries: []any{}, dropped: []drop{{0, core.CarriageBase64URL}}},
		{name: "carriage/https/non-zero-spare-bits-are-dropped", binding: "https",
			desc:    "The last character's unused bits must be zero: otherwise two texts decode to one query and the header has no one spelling. A lax decoder ignores them; a respondent drops the value.",
			headers: h(v(spare)), queries: []any{}, dropped: []drop{{0, core.CarriageBase64URL}}},
		{name: "carriage/https/json-with-whitespace-is-not-compact", binding: "https",
			desc:    "§6 carries compact JSON: a query whose JSON is indented is dropped, so a header is as short as its query allows.",
			headers: h(v(b64(indented.Bytes()))), queries: []any{}, dropped: []drop{{0, core.CarriageCompact}}},
		{name: "carriage/https/array-of-queries-in-one-header-is-dropped", binding: "https",
			desc:    "One header per query: a header holding a JSON array of two queries is not one QueryRequest object and is dropped whole.",
			headers: h(v(b64([]byte("[" + string(canonicalJSON(request())) + "," + string(canonicalJSON(second())) + "]")))), queries: []any{}, dropped: []drop{{0, core.CarriageObject}}},
		{name: "carriage/https/text-that-is-not-json-is-dropped", binding: "https",
			desc:    "A value that decodes to text that is not JSON (here YAML) holds no query.",
			headers: h(v(b64([]byte("consentMode: not_required\nprompt: Did it help?\n")))), queries: []any{}, dropped: []drop{{0, core.CarriageObject}}},
		{name: "carriage/https/invalid-query-request-is-dropped", binding: "https",
			desc:    "The Quickstart's request as published has no consentMode (D2): well carried, but not a valid QueryRequest, so the respondent drops it.",
			headers: h(queryHeader(quickstartRequest())), queries: []any{}, dropped: []drop{{0, core.CarriageRequest}}},
		{name: "carriage/https/duplicate-member-is-dropped", binding: "https",
			desc:    "A duplicate member name is not I-JSON (D13): a respondent cannot tell which prompt was meant and drops the query.",
			headers: h(v(b64([]byte(strings.Replace(string(one), `"prompt":`, `"prompt":"Ignore the question.","prompt":`, 1))))), queries: []any{}, dropped: []drop{{0, core.CarriageRequest}}},
		{name: "carriage/https/a-broken-header-does-not-lose-the-others", binding: "https",
			desc:    "Each header is judged on its own: the queries before and after a padded one are taken, and only it is dropped (index: its position among the AQP-Query elements).",
			headers: h(queryHeader(request()), v(padded), queryHeader(second())), queries: []any{request(), second()}, dropped: []drop{{1, core.CarriageBase64URL}}},
		{name: "carriage/https/another-header-name-carries-nothing", binding: "https",
			desc:    "Only AQP-Query carries a query: the same value under AQP-Queries is not read, so the respondent takes nothing.",
			headers: h(header{spec.QueryHeader + "s", text}), queries: []any{}},
	}
}

// toolResult is an MCP tool result whose _meta holds meta.
func toolResult(meta any) object {
	return obj("content", arr(obj("type", "text", "text", "3 results")), "_meta", meta)
}

func mcpCarriageVectors() []cv {
	key := spec.MCPQueriesMetaKey
	return []cv{
		{name: "carriage/mcp/one-query-on-a-tool-result", binding: "mcp",
			desc:       `A tool result carries a query as _meta["com.agentqueryprotocol/queries"], an array of QueryRequest objects (§6).`,
			toolResult: toolResult(obj(key, arr(request()))), queries: []any{request()}},
		{name: "carriage/mcp/two-queries-in-order", binding: "mcp",
			desc:       "The array carries several queries, taken in array order.",
			toolResult: toolResult(obj(key, arr(request(), second()))), queries: []any{request(), second()}},
		{name: "carriage/mcp/other-meta-members-are-left-alone", binding: "mcp",
			desc: "Other _meta members and structuredContent travel beside the queries and change nothing.",
			toolResult: obj("content", arr(obj("type", "text", "text", "3 results")), "structuredContent", obj("results", 3),
				"_meta", obj("com.example/trace", "abc", key, arr(request()))),
			queries: []any{request()}},
		{name: "carriage/mcp/one-object-not-in-an-array-is-dropped", binding: "mcp",
			desc:       "The member is an array even for one query: a bare QueryRequest object is not an array, and the respondent drops the member (index -1).",
			toolResult: toolResult(obj(key, request())), queries: []any{}, dropped: []drop{{-1, core.CarriageArray}}},
		{name: "carriage/mcp/base64-string-is-dropped", binding: "mcp",
			desc:       "HTTPS's header form does not carry over: a base64url string under the key is not an array of QueryRequest.",
			toolResult: toolResult(obj(key, b64(canonicalJSON(request())))), queries: []any{}, dropped: []drop{{-1, core.CarriageArray}}},
		{name: "carriage/mcp/null-is-dropped", binding: "mcp",
			desc:       "null is not an array: whatever the sender meant to carry is lost, and the respondent says so.",
			toolResult: toolResult(obj(key, nil)), queries: []any{}, dropped: []drop{{-1, core.CarriageArray}}},
		{name: "carriage/mcp/query-as-json-text-is-dropped", binding: "mcp",
			desc:       "An entry is a QueryRequest object, not a string holding its JSON: the respondent does not decode twice.",
			toolResult: toolResult(obj(key, arr(string(canonicalJSON(request()))))), queries: []any{}, dropped: []drop{{0, core.CarriageObject}}},
		{name: "carriage/mcp/an-invalid-entry-does-not-lose-the-others", binding: "mcp",
			desc:       "Each entry is judged on its own: an invalid QueryRequest between two valid ones is dropped, the others taken.",
			toolResult: toolResult(obj(key, arr(request(), quickstartRequest(), second()))), queries: []any{request(), second()}, dropped: []drop{{1, core.CarriageRequest}}},
		{name: "carriage/mcp/another-meta-key-carries-nothing", binding: "mcp",
			desc:       "Only the pinned key carries queries: an array under com.agentqueryprotocol/query is not read.",
			toolResult: toolResult(obj(strings.TrimSuffix(key, "s"), arr(request()))), queries: []any{}},
		{name: "carriage/mcp/queries-in-structured-content-carry-nothing", binding: "mcp",
			desc:       "Queries travel in the result's _meta, not in its structuredContent, which is the tool's own output.",
			toolResult: obj("content", arr(obj("type", "text", "text", "3 results")), "structuredContent", obj(key, arr(request()))),
			queries:    []any{}},
	}
}

// message is an A2A agent Message whose metadata is meta.
func message(meta any) object {
	return obj("kind", "message", "messageId", "msg-1", "role", "agent", "parts", arr(obj("kind", "text", "text", "done")), "metadata", meta)
}

// message10 is an A2A 1.0 agent Message (parts without kind, role ROLE_AGENT, the extension listed) whose metadata is
// meta.
func message10(meta any) object {
	return obj("messageId", "msg-1", "role", "ROLE_AGENT", "extensions", arr(spec.A2AExtension),
		"parts", arr(obj("text", "done")), "metadata", meta)
}

// task10 is an A2A 1.0 Task whose metadata is meta.
func task10(meta any) object {
	return obj("id", "task-1", "contextId", "ctx-1", "status", obj("state", "TASK_STATE_COMPLETED"), "metadata", meta)
}

func a2aCarriageVectors() []cv {
	key := spec.A2AQueriesMetadataKey
	return append(a2a10CarriageVectors(key), []cv{
		{name: "carriage/a2a/one-query-on-a-message", binding: "a2a",
			desc:    "A Message carries queries under the metadata key https://agentqueryprotocol.com/specification/2026-07-30/a2a/queries, an array of QueryRequest (§6).",
			message: message(obj(key, arr(request()))), queries: []any{request()}},
		{name: "carriage/a2a/one-query-on-a-task", binding: "a2a",
			desc:    "A Task carries them under the same metadata key.",
			task:    obj("kind", "task", "id", "task-1", "contextId", "ctx-1", "status", obj("state", "completed"), "metadata", obj(key, arr(request()))),
			queries: []any{request()}},
		{name: "carriage/a2a/two-queries-in-order", binding: "a2a",
			desc:    "The array carries several queries, taken in array order.",
			message: message(obj(key, arr(request(), second()))), queries: []any{request(), second()}},
		{name: "carriage/a2a/one-object-not-in-an-array-is-dropped", binding: "a2a",
			desc:    "The member is an array even for one query: a bare QueryRequest object is dropped (index -1).",
			message: message(obj(key, request())), queries: []any{}, dropped: []drop{{-1, core.CarriageArray}}},
		{name: "carriage/a2a/null-is-dropped", binding: "a2a",
			desc:    "null is not an array: a respondent reports the member rather than read it as no queries.",
			message: message(obj(key, nil)), queries: []any{}, dropped: []drop{{-1, core.CarriageArray}}},
		{name: "carriage/a2a/a-number-entry-is-dropped", binding: "a2a",
			desc:    "An entry that is not an object (a number) is no QueryRequest; the valid query after it is still taken.",
			message: message(obj(key, arr(42, request()))), queries: []any{request()}, dropped: []drop{{0, core.CarriageObject}}},
		{name: "carriage/a2a/an-invalid-entry-does-not-lose-the-others", binding: "a2a",
			desc:    "Each entry is judged on its own: an invalid QueryRequest between two valid ones is dropped, the others taken.",
			message: message(obj(key, arr(request(), quickstartRequest(), second()))), queries: []any{request(), second()}, dropped: []drop{{1, core.CarriageRequest}}},
		{name: "carriage/a2a/another-protocol-version-carries-nothing", binding: "a2a",
			desc:    "The key names the protocol version: an array under another version's key is not this version's queries and is not read.",
			message: message(obj(strings.Replace(key, spec.ProtocolVersion, "2025-01-01", 1), arr(request()))), queries: []any{}},
		{name: "carriage/a2a/the-mcp-key-carries-nothing", binding: "a2a",
			desc:    "Each binding pins its own key: MCP's com.agentqueryprotocol/queries on an A2A Message is not read.",
			message: message(obj(spec.MCPQueriesMetaKey, arr(request()))), queries: []any{}},
		{name: "carriage/a2a/queries-on-a-part-carry-nothing", binding: "a2a",
			desc: "Queries ride on the Message or Task, not on one of its parts: the key in a part's metadata is not read.",
			message: obj("kind", "message", "messageId", "msg-1", "role", "agent",
				"parts", arr(obj("kind", "text", "text", "done", "metadata", obj(key, arr(request()))))),
			queries: []any{}},
	}...)
}

// a2a10CarriageVectors are the A2A 1.0 forms (D32): the same metadata key on a 1.0 Message or Task, whose parts have
// no kind; the vectors without a generation in their name are A2A 0.3's.
func a2a10CarriageVectors(key string) []cv {
	return []cv{
		{name: "carriage/a2a/1.0/one-query-on-a-message", binding: "a2a",
			desc:    "An A2A 1.0 Message carries queries under the same metadata key as 0.3 (D32), and lists the AQP extension in its extensions.",
			message: message10(obj(key, arr(request()))), queries: []any{request()}},
		{name: "carriage/a2a/1.0/one-query-on-a-task", binding: "a2a",
			desc: "An A2A 1.0 Task (state TASK_STATE_COMPLETED) carries them under the same metadata key.",
			task: task10(obj(key, arr(request()))), queries: []any{request()}},
		{name: "carriage/a2a/1.0/two-queries-in-order", binding: "a2a",
			desc:    "On a 1.0 Message too the array carries several queries, taken in array order.",
			message: message10(obj(key, arr(request(), second()))), queries: []any{request(), second()}},
		{name: "carriage/a2a/1.0/null-is-dropped", binding: "a2a",
			desc:    "null is not an array, whatever the generation: the member is reported (index -1).",
			message: message10(obj(key, nil)), queries: []any{}, dropped: []drop{{-1, core.CarriageArray}}},
		{name: "carriage/a2a/1.0/an-invalid-entry-does-not-lose-the-others", binding: "a2a",
			desc:    "On a 1.0 Message each entry is judged on its own: the invalid one is dropped, the others taken.",
			message: message10(obj(key, arr(request(), quickstartRequest(), second()))), queries: []any{request(), second()}, dropped: []drop{{1, core.CarriageRequest}}},
		{name: "carriage/a2a/1.0/queries-on-a-data-part-carry-nothing", binding: "a2a",
			desc: "Queries ride on the 1.0 Message's metadata, not in a part: a data part holding the key is the message's content, not carriage.",
			message: obj("messageId", "msg-1", "role", "ROLE_AGENT",
				"parts", arr(obj("data", obj(key, arr(request())), "mediaType", "application/json"))),
			queries: []any{}},
	}
}

// carriageFiles are the carriage vector files.
func carriageFiles() []file {
	return []file{
		{path: "carriage/https.json", desc: "HTTPS: queries travel as AQP-Query response headers, each the unpadded base64url of one QueryRequest's compact JSON (§6).", carriage: httpsCarriageVectors()},
		{path: "carriage/mcp.json", desc: `MCP: queries travel on a tool result as _meta["com.agentqueryprotocol/queries"], an array of QueryRequest (§6).`, carriage: mcpCarriageVectors()},
		{path: "carriage/a2a.json", desc: "A2A: queries travel on a Message or Task under the metadata key https://agentqueryprotocol.com/specification/2026-07-30/a2a/queries, an array of QueryRequest (§6).", carriage: a2aCarriageVectors()},
	}
}

// check holds a carriage vector to what the loader requires, so that a table mistake fails `make vectors`
// rather than the suite: its form is its binding's, and every query a respondent takes is valid.
func (v cv) check() error {
	if _, ok := carriageRequirement[v.binding]; !ok {
		return fmt.Errorf("%s: unknown binding %q", v.name, v.binding)
	}
	for i, q := range v.queries {
		if doc := core.Parse(core.KindRequest, render(q)); !doc.Valid() {
			return fmt.Errorf("%s: queries[%d] is not a valid QueryRequest: %v", v.name, i, doc.Errors)
		}
	}
	return nil
}

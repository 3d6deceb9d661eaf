// Package spec embeds the AQP schemas and the OpenAPI document exactly as they are written in this folder, so that
// every validator, server and test in the module works from the same bytes the generators read.
package spec

import "embed"

// ProtocolVersion is the AQP protocol version these documents define.
const ProtocolVersion = "2026-07-30"

// SchemaBase is the URL every schema's $id starts with; a schema is served at the path of its $id.
const SchemaBase = "https://agentqueryprotocol.com/specification/" + ProtocolVersion + "/schema/"

// SchemaPath is the path part of SchemaBase, where a collector serves the schemas.
const SchemaPath = "/specification/" + ProtocolVersion + "/schema/"

// The schema files, by the name their $id ends with.
const (
	RequestSchema  = "query-request.schema.json"
	ResponseSchema = "query-response.schema.json"
	ReceiptSchema  = "query-receipt.schema.json"
	SubjectSchema  = "query-subject.schema.json"
)

// SchemaFiles lists the four schema files in a stable order.
var SchemaFiles = []string{RequestSchema, ResponseSchema, ReceiptSchema, SubjectSchema}

// FS holds the schemas, the OpenAPI document and the unchanged seed request schema (under seed/).
//
//go:embed *.schema.json openapi.yaml seed/query-request.schema.json
var FS embed.FS

// File returns the bytes of one embedded file; it panics when the name is not embedded, which is a build error.
func File(name string) []byte {
	b, err := FS.ReadFile(name)
	if err != nil {
		panic("spec: " + err.Error())
	}
	return b
}

// Bindings are the names of the three bindings of §6, as a query's delivery.binding names them.
const (
	BindingHTTPS = "https"
	BindingMCP   = "mcp"
	BindingA2A   = "a2a"
)

// The pinned wire constants of §6: where a collector serves each binding and the delivery.operation a query for it
// names. They live here, beside the schemas, because other implementations and interop suites depend on them;
// each binding package reads its own and nothing else hard-codes them.
const (
	// HTTPSPath is the HTTPS binding's endpoint: POST a QueryResponse, get a QueryReceipt.
	HTTPSPath = "/aqp/v1/responses"
	// MCPPath is the MCP binding's streamable HTTP endpoint.
	MCPPath = "/mcp"
	// MCPOperation is the MCP tool a respondent calls with the QueryResponse as its arguments.
	MCPOperation = "aqp_submit_response"
	// A2APath is the A2A binding's endpoint: JSON-RPC (A2A 1.0 and 0.3) at the path itself, and the base URL of
	// A2A 1.0's HTTP+JSON transport (POST A2APath + "/message:send"). A query's delivery.endpoint names it.
	A2APath = "/a2a"
	// A2AOperation is the A2A operation a respondent sends the QueryResponse with: A2A 1.0's SendMessage, the same
	// name as a JSON-RPC method and a gRPC method (HTTP+JSON spells it POST /message:send). D32.
	A2AOperation = "SendMessage"
	// A2ALegacyOperation is A2A 0.3's name for the same operation (JSON-RPC message/send): queries issued before
	// D32 name it, and a respondent treats both names as the one operation.
	A2ALegacyOperation = "message/send"
	// A2AAgentCardPath is where the A2A binding serves its agent card.
	A2AAgentCardPath = "/.well-known/agent-card.json"
)

// The pinned carriage keys of §6: how a query travels to a respondent on each binding.
const (
	// QueryHeader is the HTTPS response header carrying one query: base64url (no padding) of its compact JSON.
	QueryHeader = "AQP-Query"
	// MCPQueriesMetaKey is the _meta key of an MCP tool result carrying an array of QueryRequest. It follows MCP
	// 2026-07-28's _meta naming rule (a reverse-DNS prefix, "/", a name), beside MCP's own
	// "io.modelcontextprotocol/serverInfo" (D31).
	MCPQueriesMetaKey = "com.agentqueryprotocol/queries"
	// MCPExtension is the extension identifier under which an MCP collector declares AQP in its server
	// capabilities (capabilities.extensions), in server/discover and initialize alike (D31). Extension identifiers
	// follow the same naming rule as _meta keys.
	MCPExtension = "com.agentqueryprotocol/aqp"
	// A2AQueriesMetadataKey is the metadata key of an A2A Message or Task carrying an array of QueryRequest.
	A2AQueriesMetadataKey = "https://agentqueryprotocol.com/specification/" + ProtocolVersion + "/a2a/queries"
	// A2AExtension is the extension URI an A2A agent card declares.
	A2AExtension = "https://agentqueryprotocol.com/specification/" + ProtocolVersion + "/a2a"
)

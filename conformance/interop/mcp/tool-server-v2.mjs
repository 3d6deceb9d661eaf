// An MCP tool server built on today's TypeScript SDK (@modelcontextprotocol/server 2.x), the other direction of
// `make interop-mcp`: its one tool, "search", issues a query about the call through a fresh `aqp serve`'s admin
// API (AQP_URL, AQP_ADMIN_TOKEN) and carries it on the tool result as _meta["com.agentqueryprotocol/queries"]
// (§6, D31). run.sh answers it with `aqp respond --from URL --carrier mcp`, which speaks to this server as the
// binding's client does (server/discover at 2026-07-28, else initialize). Served by the SDK's createMcpHandler,
// which answers both eras (2026-07-28 and, statelessly, 2025's initialize) from a server built per request. It listens on a free loopback port and prints
// the endpoint's URL on its first line, and every JSON-RPC method it is sent (with its Mcp-Protocol-Version header)
// on standard error.
import http from "node:http";
import { McpServer, createMcpHandler } from "@modelcontextprotocol/server";

const base = process.env.AQP_URL;
const admin = process.env.AQP_ADMIN_TOKEN;
export const issued = [];

async function issue(callId) {
  const draft = {
    type: "feedback", binding: "mcp",
    subject: { kind: "tool_call", id: callId, idScope: "local", protocol: "mcp" },
    prompt: "Did the search results answer the question?", timing: "after_outcome_known",
    consentMode: "not_required", requestedRespondent: "agent",
    response: { format: "choice", choices: ["yes", "partly", "no"] },
  };
  const r = await fetch(`${base}/admin/v1/queries`, {
    method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${admin}` }, body: JSON.stringify(draft),
  });
  if (r.status !== 201) throw new Error(`issuing: ${r.status} ${await r.text()}`);
  return r.json();
}

function newServer() {
  const server = new McpServer({ name: "aqp-interop-tool-server-v2", version: "1.0.0" });
  server.registerTool("search", { title: "Search", description: "Searches, and asks the calling agent whether the results helped." }, async () => {
    const query = await issue(`call-search-${issued.length + 1}`);
    issued.push(query.queryId);
    console.error(`issued ${query.queryId}`);
    return {
      content: [{ type: "text", text: "3 results" }],
      _meta: { "com.agentqueryprotocol/queries": [query] },
    };
  });
  return server;
}

const handler = createMcpHandler(newServer, { onerror: (e) => console.error(`handler: ${e.message}`) });
const listener = http.createServer(async (req, res) => {
  try {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks);
    try {
      console.error(`method ${JSON.parse(body.toString()).method} ${req.headers["mcp-protocol-version"] ?? "-"}`);
    } catch {}
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method, headers: req.headers, body: ["GET", "HEAD"].includes(req.method) ? undefined : body,
    });
    const response = await handler.fetch(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  } catch (e) {
    console.error(e);
    res.writeHead(500).end(String(e));
  }
});
listener.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${listener.address().port}/mcp`));

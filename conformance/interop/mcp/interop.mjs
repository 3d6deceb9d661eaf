// The official MCP TypeScript SDK (@modelcontextprotocol/sdk) as an independent client of AQP's MCP binding, run
// by `make interop-mcp` against a fresh `aqp serve` (AQP_URL, AQP_ADMIN_TOKEN). It lists the tool and checks both
// schemas are self-contained, calls it with an accepted answer, a rejected one and a wrong capability, checks the
// HTTPS binding returns the identical receipt bytes for the same response afterwards, and that a response the SDK
// re-encodes (JSON.parse/JSON.stringify) is a duplicate of the text first sent over HTTPS, not a conflict.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const base = process.env.AQP_URL;
const admin = process.env.AQP_ADMIN_TOKEN;
let failures = 0;
const check = (ok, what) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures++;
};

async function issue() {
  const draft = {
    type: "clarification", binding: "mcp",
    subject: { kind: "tool_call", id: "call_01JQ8QY3EJX9", idScope: "local", protocol: "mcp" },
    prompt: "Did this tool result fully answer the user's request?", timing: "after_outcome_known",
    consentMode: "not_required", requestedRespondent: "agent",
    response: { format: "choice", choices: ["yes", "partly", "no"] },
  };
  const r = await fetch(`${base}/admin/v1/queries`, {
    method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${admin}` }, body: JSON.stringify(draft),
  });
  if (r.status !== 201) throw new Error(`issuing: ${r.status} ${await r.text()}`);
  return r.json();
}

// responseText is the Quickstart response as a respondent might write it: indented, numbers as written.
const responseText = (queryId, responseId, answer) => `{
  "protocolVersion": "2026-07-30",
  "responseId": "${responseId}",
  "queryId": "${queryId}",
  "subject": { "kind": "tool_call", "id": "call_01JQ8QY3EJX9", "protocol": "mcp" },
  "respondent": { "kind": "agent", "provenance": "direct" },
  "answer": "${answer}",
  "explanation": "The result answered the question after one retry \\u2014 caf\\u00e9.",
  "confidence": 0.920,
  "createdAt": "${new Date().toISOString().replace(/\.\d+Z$/, "Z")}"
}`;

async function connect(query, authorization) {
  const client = new Client({ name: "aqp-interop-ts", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(query.delivery.endpoint), {
    requestInit: { headers: { Authorization: authorization } },
  });
  await client.connect(transport);
  return client;
}

async function viaHTTPS(authorization, text) {
  const r = await fetch(`${base}/aqp/v1/responses`, {
    method: "POST", headers: { "Content-Type": "application/json", Authorization: authorization }, body: text,
  });
  return r.text();
}

const external = (schema) => JSON.stringify(schema).match(/"\$ref":"(?!#)[^"]*"/g) ?? [];
const textOf = (res) => res.content?.find((c) => c.type === "text")?.text;

const q = await issue();
check(q.delivery.binding === "mcp" && q.delivery.operation === "aqp_submit_response", "the query names the MCP binding and its tool");
const client = await connect(q, q.delivery.authorization);
const { tools } = await client.listTools();
const tool = tools.find((t) => t.name === q.delivery.operation);
check(tool !== undefined, "tools/list has aqp_submit_response");
check(tool?.inputSchema?.type === "object" && tool.inputSchema.required?.includes("queryId") && external(tool.inputSchema).length === 0,
  "inputSchema is the QueryResponse schema, with no $ref outside itself");
check(tool?.outputSchema?.type === "object" && tool.outputSchema.required?.includes("status") && external(tool.outputSchema).length === 0 &&
  tool.outputSchema.$defs?.["query-request"] !== undefined, "outputSchema is the QueryReceipt schema, bundled with the request schema it refers to");

// An accepted answer: structuredContent is the receipt, the text the same JSON, and HTTPS gives the same bytes after.
const accepted = responseText(q.queryId, "0198c7d0-2180-7729-b005-d33c99fc3001", "partly");
let res = await client.callTool({ name: tool.name, arguments: JSON.parse(accepted) });
check(res.isError !== true && res.structuredContent?.status === "accepted", "an accepted answer: structuredContent.status accepted, not isError");
check(JSON.stringify(JSON.parse(textOf(res))) === JSON.stringify(res.structuredContent), "the text content is the same JSON as structuredContent");
const httpsReceipt = await viaHTTPS(q.delivery.authorization, accepted);
check(httpsReceipt === textOf(res), "the HTTPS binding returns the identical receipt bytes for the same response afterwards");

// A rejected answer on a second query (the first is answered).
const q2 = await issue();
const client2 = await connect(q2, q2.delivery.authorization);
res = await client2.callTool({ name: tool.name, arguments: JSON.parse(responseText(q2.queryId, "0198c7d0-2180-7729-b005-d33c99fc3002", "maybe")) });
check(res.isError === true && res.structuredContent?.error?.code === "answer_invalid", "a rejected answer: isError with structuredContent.error.code answer_invalid");

// A wrong capability.
const wrong = await connect(q2, "Bearer not-the-capability");
const rejectedText = responseText(q2.queryId, "0198c7d0-2180-7729-b005-d33c99fc3003", "yes");
res = await wrong.callTool({ name: tool.name, arguments: JSON.parse(rejectedText) });
check(res.isError === true && res.structuredContent?.error?.code === "unauthorized", "a wrong capability: isError with structuredContent.error.code unauthorized");

// The response first sent over HTTPS as written (0.920, \u escapes), then re-encoded by the SDK: a duplicate.
const original = responseText(q2.queryId, "0198c7d0-2180-7729-b005-d33c99fc3004", "no");
const first = await viaHTTPS(q2.delivery.authorization, original);
res = await client2.callTool({ name: tool.name, arguments: JSON.parse(original) });
check(JSON.parse(first).status === "accepted" && textOf(res) === first && res.isError !== true,
  "the same response re-encoded by the SDK is a duplicate (the stored receipt, byte for byte), not a conflict");

await Promise.all([client.close(), client2.close(), wrong.close()]);
if (failures > 0) {
  console.error(`${failures} check(s) failed`);
  process.exit(1);
}
console.log("interop-mcp: the TypeScript SDK agrees with the binding");

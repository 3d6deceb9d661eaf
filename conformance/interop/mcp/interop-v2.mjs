// Today's MCP TypeScript SDK (@modelcontextprotocol/client 2.x) as an independent client of AQP's MCP binding, run
// by `make interop-mcp` beside interop.mjs (the 1.x SDK) against a fresh `aqp serve` (AQP_URL, AQP_ADMIN_TOKEN). In
// each of the client's negotiation modes — its default ('legacy': initialize), 'auto' (server/discover, then the
// era it finds) and pinned to 2026-07-28 — it connects, checks the era it settled on, the AQP extension
// (capabilities.extensions["com.agentqueryprotocol/aqp"]) and the tool's title and annotations (D31), calls the
// tool with an accepted answer to a fresh query, and checks the receipt is byte-equal to the HTTPS binding's for
// the same response afterwards (a duplicate gets the stored receipt, byte for byte); a rejected answer is isError.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

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

async function viaHTTPS(authorization, text) {
  const r = await fetch(`${base}/aqp/v1/responses`, {
    method: "POST", headers: { "Content-Type": "application/json", Authorization: authorization }, body: text,
  });
  return r.text();
}

const textOf = (res) => res.content?.find((c) => c.type === "text")?.text;

const modes = [
  { name: "default", options: {}, era: "legacy" },
  { name: "auto", options: { versionNegotiation: { mode: "auto" } }, era: "modern" },
  { name: "pinned 2026-07-28", options: { versionNegotiation: { mode: { pin: "2026-07-28" } } }, era: "modern", version: "2026-07-28" },
];
let n = 0;
for (const mode of modes) {
  const q = await issue();
  const client = new Client({ name: "aqp-interop-ts-v2", version: "1.0.0" }, mode.options);
  const transport = new StreamableHTTPClientTransport(new URL(q.delivery.endpoint), {
    requestInit: { headers: { Authorization: q.delivery.authorization } },
  });
  await client.connect(transport);
  const was = `[${mode.name}]`;
  check(client.getProtocolEra() === mode.era, `${was} the client settled on the ${mode.era} era (got ${client.getProtocolEra()}, ${client.getNegotiatedProtocolVersion()})`);
  if (mode.version) check(client.getNegotiatedProtocolVersion() === mode.version, `${was} negotiated ${mode.version}`);
  const ext = client.getServerCapabilities()?.extensions?.["com.agentqueryprotocol/aqp"];
  check(ext?.version === "2026-07-30" && ext?.tool === q.delivery.operation && ext?.queriesMetaKey === "com.agentqueryprotocol/queries",
    `${was} capabilities.extensions declares AQP: ${JSON.stringify(ext)}`);
  const { tools } = await client.listTools();
  const tool = tools.find((t) => t.name === q.delivery.operation);
  const a = tool?.annotations ?? {};
  check(tool?.title !== undefined && a.title === tool.title && a.idempotentHint === true && a.readOnlyHint === false &&
    a.destructiveHint === false && a.openWorldHint === false, `${was} tools/list shows the title and annotations: ${JSON.stringify({ title: tool?.title, a })}`);

  n++;
  const accepted = responseText(q.queryId, `0198c7d0-2180-7729-b005-d33c99fc50${String(n).padStart(2, "0")}`, "partly");
  let res = await client.callTool({ name: tool.name, arguments: JSON.parse(accepted) });
  check(res.isError !== true && res.structuredContent?.status === "accepted", `${was} an accepted answer: structuredContent.status accepted, not isError`);
  check(JSON.stringify(JSON.parse(textOf(res))) === JSON.stringify(res.structuredContent), `${was} the text content is the same JSON as structuredContent`);
  const httpsReceipt = await viaHTTPS(q.delivery.authorization, accepted);
  check(httpsReceipt === textOf(res), `${was} the HTTPS binding returns the identical receipt bytes for the same response afterwards`);

  const q2 = await issue();
  const rejecting = new Client({ name: "aqp-interop-ts-v2", version: "1.0.0" }, mode.options);
  await rejecting.connect(new StreamableHTTPClientTransport(new URL(q2.delivery.endpoint), {
    requestInit: { headers: { Authorization: q2.delivery.authorization } },
  }));
  res = await rejecting.callTool({ name: tool.name, arguments: JSON.parse(responseText(q2.queryId, "0198c7d0-2180-7729-b005-d33c99fc5100", "maybe")) });
  check(res.isError === true && res.structuredContent?.error?.code === "answer_invalid", `${was} a rejected answer: isError with error.code answer_invalid`);
  await Promise.all([client.close(), rejecting.close()]);
}

if (failures > 0) {
  console.error(`${failures} check(s) failed`);
  process.exit(1);
}
console.log("interop-mcp: the TypeScript SDK v2 agrees with the binding in every negotiation mode");

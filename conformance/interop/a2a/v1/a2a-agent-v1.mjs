// The other direction: an A2A 1.0 agent built with the A2A JavaScript SDK 1.x server (@a2a-js/sdk 1.3,
// DefaultRequestHandler + the Express JSON-RPC handler) carries an AQP query to a respondent, and `aqp respond`
// answers it. Against a real `aqp serve` (the collector) it starts on a free loopback port:
//   - a boolean feedback query for the A2A binding is issued through the collector's admin API;
//   - the SDK agent's reply Message carries it in metadata under the AQP queries key (and lists the AQP extension);
//   - `aqp respond --from <agent> --carrier a2a --answer true --allow-http-loopback --json` reads the agent card,
//     sends the agent a message, takes the query from the reply, and delivers the answer (exit 0: accepted);
//   - the collector's admin API shows the query answered.
// Usage: node a2a-agent-v1.mjs path/to/aqp
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import express from "express";
import { Role } from "@a2a-js/sdk";
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express";

const EXTENSION = "https://agentqueryprotocol.com/specification/2026-07-30/a2a";
const QUERIES_KEY = EXTENSION + "/queries";
const ADMIN = "interop-a2a-v1-agent-admin";
let failures = 0;
function check(ok, what, detail) {
  if (ok) {
    console.log(`ok   ${what}`);
  } else {
    failures++;
    console.log(`FAIL ${what}${detail === undefined ? "" : ": " + JSON.stringify(detail)}`);
  }
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function startCollector(bin) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "aqp-interop-a2a-agent-"));
  const proc = spawn(bin, ["serve", "--addr", `127.0.0.1:${port}`, "--data-dir", dir], {
    env: { ...process.env, AQP_ADMIN_TOKEN: ADMIN },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(url + "/readyz")).ok) return { url, stop: () => { proc.kill("SIGTERM"); rmSync(dir, { recursive: true, force: true }); } };
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  proc.kill("SIGKILL");
  throw new Error("aqp serve did not become ready");
}

// startAgent serves an A2A 1.0 agent (JSON-RPC) whose every reply Message carries queries() in its metadata.
async function startAgent(queries, seen) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const card = {
    name: "AQP interop agent (@a2a-js/sdk 1.x)",
    description: "Replies to any message and carries the AQP queries it was given.",
    supportedInterfaces: [{ url: base + "/a2a/jsonrpc", protocolBinding: "JSONRPC", protocolVersion: "1.0", tenant: "" }],
    version: "1.0.0",
    capabilities: { streaming: false, pushNotifications: false, extensions: [{ uri: EXTENSION, description: "AQP queries in metadata", required: false, params: undefined }] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain", "application/json"],
    skills: [{ id: "echo", name: "Echo", description: "Replies", tags: ["echo"], examples: [], inputModes: [], outputModes: [], securityRequirements: [] }],
    signatures: [],
  };
  const executor = {
    async execute(ctx, bus) {
      seen.push(ctx.userMessage);
      bus.publish(AgentEvent.message({
        messageId: randomUUID(), contextId: ctx.contextId, taskId: "", role: Role.ROLE_AGENT,
        parts: [{ content: { $case: "text", value: "Done. One question about it:" }, metadata: undefined, filename: "", mediaType: "text/plain" }],
        metadata: { [QUERIES_KEY]: queries() }, extensions: [EXTENSION], referenceTaskIds: [],
      }));
      bus.finished();
    },
    async cancelTask() {},
  };
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  const app = express();
  app.use("/.well-known/agent-card.json", agentCardHandler({ agentCardProvider: handler }));
  app.use("/a2a/jsonrpc", jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  const server = await new Promise((resolve) => { const s = app.listen(port, "127.0.0.1", () => resolve(s)); });
  return { url: base, stop: () => server.close() };
}

function run(cmd, args) {
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "", err = "";
    p.stdout.on("data", (d) => (out += d));
    p.stderr.on("data", (d) => (err += d));
    p.on("close", (code) => resolve({ code, out, err }));
  });
}

async function main() {
  const bin = process.argv[2];
  if (!bin) throw new Error("usage: node a2a-agent-v1.mjs path/to/aqp");
  const collector = await startCollector(bin);
  let agent;
  try {
    const admin = { "Content-Type": "application/json", Authorization: "Bearer " + ADMIN };
    const draft = {
      binding: "a2a", type: "feedback", subject: { kind: "task", id: "t1" }, prompt: "Was it right?",
      timing: "immediate", consentMode: "not_required", response: { format: "boolean" },
    };
    const issued = await fetch(collector.url + "/admin/v1/queries", { method: "POST", headers: admin, body: JSON.stringify(draft) });
    const query = await issued.json();
    check(issued.status === 201 && query.delivery && query.delivery.operation === "SendMessage", "the collector issues the query for the A2A binding", query);

    const seen = [];
    agent = await startAgent(() => [query], seen);
    const card = await (await fetch(agent.url + "/.well-known/agent-card.json")).json();
    check(Array.isArray(card.supportedInterfaces) && card.supportedInterfaces[0].protocolBinding === "JSONRPC", "the SDK agent serves its 1.0 card", card);

    const r = await run(bin, ["respond", "--from", agent.url, "--carrier", "a2a", "--answer", "true", "--allow-http-loopback", "--json"]);
    let receipt;
    try { receipt = JSON.parse(r.out.trim().split("\n").pop()); } catch {}
    check(r.code === 0 && receipt && receipt.status === "accepted" && receipt.queryId === query.queryId,
      "aqp respond takes the query from the SDK agent's reply and its answer is accepted", r);
    check(seen.length === 1, "aqp respond sent the SDK agent one message", seen.length);

    const got = await fetch(collector.url + "/admin/v1/queries/" + encodeURIComponent(query.queryId), { headers: admin });
    const state = await got.json();
    check(got.status === 200 && state.state === "answered" && state.response && state.response.answer === true &&
      isDeepStrictEqual(state.receipt, receipt), "the collector's admin API shows the query answered (true), with the receipt aqp respond printed", state);
  } finally {
    if (agent) agent.stop();
    collector.stop();
  }
  if (failures > 0) {
    console.log(`${failures} check(s) failed`);
    process.exit(1);
  }
  console.log("A2A 1.x carriage interop: every check passed");
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

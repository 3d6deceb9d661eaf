// Drives the AQP A2A binding with the A2A JavaScript SDK's client (@a2a-js/sdk 0.3.x), against a real `aqp serve`
// it starts on a free loopback port with a temporary data directory. This is the A2A 0.3 generation (JSON-RPC
// message/send, message/stream, tasks/get); v1/a2a-check-v1.mjs drives A2A 1.0 with the SDK's 1.x client.
//   - resolve the agent card and check it declares the AQP extension and, in its 0.3 members, the JSON-RPC
//     endpoint at protocolVersion 0.3;
//   - the query's delivery names the endpoint and operation SendMessage (A2A 1.0's name: a 0.3 client sends the
//     same response by message/send);
//   - send a wrongly authorised response (unauthorized), a rejected one (answer_invalid) and an accepted one,
//     each as a DataPart marked {"aqpObject": "response"}, reading the receipt DataPart of the reply Message;
//   - send the accepted response again over message/stream: one event, the same receipt;
//   - check the HTTPS binding returns the identical receipt for the same response afterwards (JSON values equal:
//     the SDK exposes parsed objects, not bytes);
//   - check a message without an AQP response part gets invalid params, and tasks/get the unsupported-operation
//     error.
// Usage: node a2a-check.mjs path/to/aqp
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { randomUUID } from "node:crypto";
import { A2AClient } from "@a2a-js/sdk/client";

const EXTENSION = "https://agentqueryprotocol.com/specification/2026-07-30/a2a";
const ADMIN = "interop-a2a-admin";
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
  const dir = mkdtempSync(join(tmpdir(), "aqp-interop-a2a-"));
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

function clientWith(cardUrl, authorization) {
  const fetchImpl = (input, init = {}) => {
    const headers = new Headers(init.headers);
    if (authorization) headers.set("Authorization", authorization);
    return fetch(input, { ...init, headers });
  };
  return A2AClient.fromCardUrl(cardUrl, { fetchImpl });
}

function responsePart(response) {
  return { kind: "data", data: response, metadata: { aqpObject: "response" } };
}

function message(parts) {
  return { kind: "message", messageId: randomUUID(), role: "user", parts, extensions: [EXTENSION] };
}

function receiptOf(result) {
  if (!result || result.kind !== "message") return undefined;
  const parts = (result.parts || []).filter((p) => p.kind === "data" && p.metadata && p.metadata.aqpObject === "receipt");
  return parts.length === 1 ? parts[0].data : undefined;
}

async function main() {
  const bin = process.argv[2];
  if (!bin) throw new Error("usage: node a2a-check.mjs path/to/aqp");
  const collector = await startCollector(bin);
  try {
    const cardUrl = collector.url + "/.well-known/agent-card.json";

    // The agent card.
    const anon = await clientWith(cardUrl, "");
    const card = await anon.getAgentCard();
    const exts = (card.capabilities && card.capabilities.extensions) || [];
    check(exts.some((e) => e.uri === EXTENSION), "the agent card declares the AQP extension", exts);
    check(card.url === collector.url + "/a2a" && card.preferredTransport === "JSONRPC" && card.protocolVersion === "0.3",
      "the card names the JSON-RPC endpoint at A2A 0.3", { url: card.url, preferredTransport: card.preferredTransport, protocolVersion: card.protocolVersion });
    check((card.skills || []).length === 1, "the card has one skill", card.skills);
    const schemes = Object.values(card.securitySchemes || {});
    check(schemes.some((s) => s.type === "http" && /^bearer$/i.test(s.scheme)), "the card declares the bearer scheme", card.securitySchemes);

    // A query for the A2A binding, issued through the admin API.
    const draft = {
      binding: "a2a", type: "clarification", subject: { kind: "task", id: "interop-1", protocol: "a2a" },
      prompt: "Did the delegated work meet the brief?", timing: "immediate", consentMode: "not_required",
      response: { format: "choice", choices: ["yes", "partly", "no"] },
    };
    const issued = await fetch(collector.url + "/admin/v1/queries", {
      method: "POST", headers: { "Content-Type": "application/json", Authorization: "Bearer " + ADMIN }, body: JSON.stringify(draft),
    });
    const query = await issued.json();
    check(issued.status === 201 && query.delivery.binding === "a2a" && query.delivery.operation === "SendMessage" &&
      query.delivery.endpoint === card.url, "the query's delivery names the A2A endpoint", query.delivery);
    const auth = query.delivery.authorization;
    const response = (answer) => ({
      protocolVersion: "2026-07-30", responseId: randomUUID(), queryId: query.queryId,
      subject: { kind: "task", id: "interop-1", protocol: "a2a" }, respondent: { kind: "agent", provenance: "direct" },
      answer, createdAt: new Date().toISOString(),
    });

    // Wrongly authorised.
    const wrong = await clientWith(cardUrl, "Bearer not-the-capability");
    const accepted = response("partly");
    let r = await wrong.sendMessage({ message: message([responsePart(accepted)]) });
    let receipt = receiptOf(r.result);
    check(receipt && receipt.status === "rejected" && receipt.error.code === "unauthorized", "a wrong capability is rejected: unauthorized", r);

    // Rejected: an answer outside the choices.
    const client = await clientWith(cardUrl, auth);
    const invalid = response("maybe");
    r = await client.sendMessage({ message: message([{ kind: "text", text: "here is my answer" }, responsePart(invalid)]) });
    receipt = receiptOf(r.result);
    check(receipt && receipt.status === "rejected" && receipt.error.code === "answer_invalid" && receipt.retryable === false,
      "an answer outside the choices is rejected: answer_invalid", r);

    // Accepted.
    r = await client.sendMessage({ message: message([responsePart(accepted)]) });
    const acceptedReceipt = receiptOf(r.result);
    check(acceptedReceipt && acceptedReceipt.status === "accepted" && acceptedReceipt.responseId === accepted.responseId,
      "the response is accepted", r);

    // The same over message/stream: one event, the same receipt.
    const events = [];
    for await (const ev of client.sendMessageStream({ message: message([responsePart(accepted)]) })) events.push(ev);
    check(events.length === 1 && isDeepStrictEqual(receiptOf(events[0]), acceptedReceipt),
      "message/stream yields the same receipt as its one event", events);

    // The HTTPS binding gives the identical receipt for the same response afterwards.
    const https = await fetch(collector.url + "/aqp/v1/responses", {
      method: "POST", headers: { "Content-Type": "application/json", Authorization: auth }, body: JSON.stringify(accepted),
    });
    check(https.status === 200 && isDeepStrictEqual(await https.json(), acceptedReceipt),
      "the HTTPS binding returns the identical receipt for the same response", https.status);

    // A message without an AQP response part: invalid params saying what was expected.
    r = await client.sendMessage({ message: message([{ kind: "text", text: "no response here" }]) });
    check(r.error && r.error.code === -32602 && /aqpObject/.test(r.error.message), "a message without a response part is invalid params", r);

    // tasks/get: unsupported.
    r = await client.getTask({ id: "no-such-task" });
    check(r.error && r.error.code === -32004, "tasks/get is an unsupported operation", r);
  } finally {
    collector.stop();
  }
  if (failures > 0) {
    console.log(`${failures} check(s) failed`);
    process.exit(1);
  }
  console.log("A2A interop: every check passed");
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

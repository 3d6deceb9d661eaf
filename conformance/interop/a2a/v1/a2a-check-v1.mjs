// Drives the AQP A2A binding with the A2A JavaScript SDK 1.x client (@a2a-js/sdk 1.3, A2A 1.0), against a real
// `aqp serve` it starts on a free loopback port with a temporary data directory. For each way of choosing a
// transport — the ClientFactory's DEFAULT mode (it must find a compatible interface on our card by itself), then
// JSON-RPC, HTTP+JSON and gRPC chosen explicitly (preferredTransports) — against a query of its own:
//   - the client's protocol version is 1.0 and it picked the transport asked for;
//   - a wrongly authorised response gets a result whose receipt is rejected: unauthorized;
//   - an answer outside the choices gets a receipt rejected: answer_invalid;
//   - an accepted response; the same sent again by SendStreamingMessage: one event, the same receipt;
//   - the HTTPS binding returns the identical receipt (deep-equal JSON) for the same response afterwards;
//   - a request that does not activate the AQP extension gets ExtensionSupportRequiredError;
//   - GetTask gets UnsupportedOperationError.
// The AQP extension is activated the way the SDK intends: the A2A-Extensions service parameter, built with
// ServiceParameters.create(withA2AExtensions(uri)) and passed as the call's options (the SDK's Client renames it
// to the header spelling of the negotiated version). The capability travels as the transport's Authorization:
// with an explicit transport, a fetchImpl for the HTTP transports (as the SDK's own auth helpers do) and gRPC
// metadata (a service parameter) for gRPC; in default mode (new ClientFactory(), no options at all) an
// Authorization service parameter, which the chosen HTTP transport sends as a header.
// Usage: node a2a-check-v1.mjs path/to/aqp
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { randomUUID } from "node:crypto";
import {
  ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory, RestTransportFactory, ServiceParameters, withA2AExtensions,
} from "@a2a-js/sdk/client";
import { GrpcTransportFactory } from "@a2a-js/sdk/client/grpc";
import { Role } from "@a2a-js/sdk";

const EXTENSION = "https://agentqueryprotocol.com/specification/2026-07-30/a2a";
const ADMIN = "interop-a2a-v1-admin";
let failures = 0;
function check(ok, what, detail) {
  if (ok) {
    console.log(`ok   ${what}`);
  } else {
    failures++;
    console.log(`FAIL ${what}${detail === undefined ? "" : ": " + show(detail)}`);
  }
}
function show(v) {
  if (v instanceof Error) return `${v.name}: ${v.message}`;
  try {
    return JSON.stringify(v, (_, x) => (typeof x === "bigint" ? String(x) : x));
  } catch {
    return String(v);
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
  const dir = mkdtempSync(join(tmpdir(), "aqp-interop-a2a-v1-"));
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

// A client from the card at base. preferred: undefined for the factory's default mode, else a protocol binding
// name. authorization goes in every HTTP request (fetchImpl) — for gRPC it goes in the call's service parameters.
async function clientFor(base, preferred, authorization) {
  const fetchImpl = (input, init = {}) => {
    const headers = new Headers(init.headers);
    if (authorization) headers.set("Authorization", authorization);
    return fetch(input, { ...init, headers });
  };
  if (preferred === undefined) return new ClientFactory().createFromUrl(base);
  const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [new JsonRpcTransportFactory({ fetchImpl }), new RestTransportFactory({ fetchImpl }), new GrpcTransportFactory()],
    preferredTransports: [preferred],
  });
  return new ClientFactory(options).createFromUrl(base);
}

// The call options: the AQP extension activated (unless activate is false), and for gRPC the capability.
function callOptions(transport, authorization, activate = true) {
  const updates = [];
  if (activate) updates.push(withA2AExtensions(EXTENSION));
  if (transport === "GRPC" && authorization) updates.push((p) => { p.authorization = authorization; });
  return { serviceParameters: ServiceParameters.create(...updates) };
}

function part(content, metadata) {
  return { content, metadata, filename: "", mediaType: "application/json" };
}
// The response part: a data part over JSON-RPC and HTTP+JSON; over gRPC a raw part holding the response's JSON
// text (application/json), the form the binding defines for gRPC so the bytes travel exactly (a data part would
// go through google.protobuf.Struct and its doubles).
function responsePart(response, transport) {
  if (transport === "GRPC") return part({ $case: "raw", value: Buffer.from(JSON.stringify(response)) }, { aqpObject: "response" });
  return part({ $case: "data", value: response }, { aqpObject: "response" });
}
function message(parts) {
  return { messageId: randomUUID(), contextId: "", taskId: "", role: Role.ROLE_USER, parts, metadata: undefined, extensions: [EXTENSION], referenceTaskIds: [] };
}
function sendParams(parts) {
  return { tenant: "", message: message(parts), configuration: undefined, metadata: undefined };
}

// receiptOf finds the receipt part of a reply: a Message (sendMessage's result) or a stream event.
function receiptOf(result) {
  let msg = result;
  if (result && result.payload) msg = result.payload.$case === "message" ? result.payload.value : undefined;
  if (!msg || !("messageId" in msg) || msg.role !== Role.ROLE_AGENT) return undefined;
  const parts = (msg.parts || []).filter((p) => p.metadata && p.metadata.aqpObject === "receipt");
  if (parts.length !== 1 || !parts[0].content) return undefined;
  const c = parts[0].content;
  if (c.$case === "data") return c.value;
  // gRPC: the receipt's JSON text as a raw part.
  if (c.$case === "raw" && parts[0].mediaType === "application/json") return JSON.parse(Buffer.from(c.value).toString("utf8"));
  return undefined;
}

async function issue(collector, id) {
  const draft = {
    binding: "a2a", type: "clarification", subject: { kind: "task", id, protocol: "a2a" },
    prompt: "Did the delegated work meet the brief?", timing: "immediate", consentMode: "not_required",
    response: { format: "choice", choices: ["yes", "partly", "no"] },
  };
  const res = await fetch(collector.url + "/admin/v1/queries", {
    method: "POST", headers: { "Content-Type": "application/json", Authorization: "Bearer " + ADMIN }, body: JSON.stringify(draft),
  });
  return { status: res.status, query: await res.json() };
}

async function expectError(what, fn, name) {
  try {
    const r = await fn();
    check(false, what, { result: r });
  } catch (e) {
    check(e && e.name === name, what, e);
  }
}

async function run(collector, label, preferred) {
  const transport = preferred ?? "JSONRPC";
  const { status, query } = await issue(collector, "interop-v1-" + transport);
  check(status === 201 && query.delivery.binding === "a2a" && query.delivery.operation === "SendMessage" &&
    query.delivery.endpoint === collector.url + "/a2a", `${label}: the query's delivery names the A2A endpoint and SendMessage`, query.delivery);
  const auth = query.delivery.authorization;
  const response = (answer) => ({
    protocolVersion: "2026-07-30", responseId: randomUUID(), queryId: query.queryId,
    subject: { kind: "task", id: "interop-v1-" + transport, protocol: "a2a" }, respondent: { kind: "agent", provenance: "direct" },
    answer, createdAt: new Date().toISOString(),
  });

  // In default mode the factory chooses; the capability then goes as a service parameter (no fetchImpl).
  let client;
  try {
    client = await clientFor(collector.url, preferred, auth);
  } catch (e) {
    check(false, `${label}: the client factory finds a compatible transport on the card`, e);
    return;
  }
  const kind = client.transport.constructor.name;
  const want = { JSONRPC: /^_?JsonRpcTransport$/, "HTTP+JSON": /^_?RestTransport$/, GRPC: /^_?GrpcTransport$/ }[transport];
  check(want.test(kind) && client.protocolVersion === "1.0", `${label}: the factory picks ${transport} at A2A 1.0`, { kind, version: client.protocolVersion });
  const opts = (a, activate = true) => {
    const o = callOptions(transport, a, activate);
    if (preferred === undefined && a) o.serviceParameters.Authorization = a;
    return o;
  };

  // Wrongly authorised: still a result, the receipt says unauthorized.
  const accepted = response("partly");
  const wrongAuth = "Bearer not-the-capability";
  const wrong = preferred === undefined ? client : await clientFor(collector.url, preferred, wrongAuth);
  try {
    const r = await wrong.sendMessage(sendParams([responsePart(accepted, transport)]), opts(wrongAuth));
    const receipt = receiptOf(r);
    check(receipt && receipt.status === "rejected" && receipt.error.code === "unauthorized", `${label}: a wrong capability is rejected: unauthorized`, r);
  } catch (e) {
    check(false, `${label}: a wrong capability is rejected: unauthorized`, e);
  }

  // Rejected: an answer outside the choices.
  try {
    const r = await client.sendMessage(sendParams([part({ $case: "text", value: "here is my answer" }, undefined), responsePart(response("maybe"), transport)]), opts(auth));
    const receipt = receiptOf(r);
    check(receipt && receipt.status === "rejected" && receipt.error.code === "answer_invalid" && receipt.retryable === false,
      `${label}: an answer outside the choices is rejected: answer_invalid`, r);
  } catch (e) {
    check(false, `${label}: an answer outside the choices is rejected: answer_invalid`, e);
  }

  // Accepted.
  let acceptedReceipt;
  try {
    const r = await client.sendMessage(sendParams([responsePart(accepted, transport)]), opts(auth));
    acceptedReceipt = receiptOf(r);
    check(acceptedReceipt && acceptedReceipt.status === "accepted" && acceptedReceipt.responseId === accepted.responseId,
      `${label}: the response is accepted`, r);
  } catch (e) {
    check(false, `${label}: the response is accepted`, e);
  }

  // SendStreamingMessage: one event, the same receipt.
  try {
    const events = [];
    for await (const ev of client.sendMessageStream(sendParams([responsePart(accepted, transport)]), opts(auth))) events.push(ev);
    check(events.length === 1 && acceptedReceipt && isDeepStrictEqual(receiptOf(events[0]), acceptedReceipt),
      `${label}: SendStreamingMessage yields the same receipt as its one event`, events);
  } catch (e) {
    check(false, `${label}: SendStreamingMessage yields the same receipt as its one event`, e);
  }

  // The HTTPS binding gives the identical receipt for the same response afterwards.
  const https = await fetch(collector.url + "/aqp/v1/responses", {
    method: "POST", headers: { "Content-Type": "application/json", Authorization: auth }, body: JSON.stringify(accepted),
  });
  const httpsReceipt = await https.json();
  check(https.status === 200 && isDeepStrictEqual(httpsReceipt, acceptedReceipt),
    `${label}: the HTTPS binding returns the identical receipt for the same response`, { status: https.status, httpsReceipt, acceptedReceipt });

  // Without activating the extension: ExtensionSupportRequired.
  await expectError(`${label}: a request not activating the AQP extension gets ExtensionSupportRequiredError`,
    () => client.sendMessage(sendParams([responsePart(accepted, transport)]), opts(auth, false)), "ExtensionSupportRequiredError");

  // GetTask: unsupported.
  await expectError(`${label}: GetTask is an unsupported operation`,
    () => client.getTask({ tenant: "", id: "no-such-task", historyLength: undefined }, opts(auth)), "UnsupportedOperationError");
}

async function main() {
  const bin = process.argv[2];
  if (!bin) throw new Error("usage: node a2a-check-v1.mjs path/to/aqp");
  const collector = await startCollector(bin);
  try {
    const card = await (await fetch(collector.url + "/.well-known/agent-card.json")).json();
    const exts = (card.capabilities && card.capabilities.extensions) || [];
    check(exts.some((e) => e.uri === EXTENSION && e.required === true), "the agent card declares the AQP extension, required", exts);
    const ifaces = (card.supportedInterfaces || []).filter((i) => i.protocolVersion === "1.0").map((i) => i.protocolBinding).sort();
    check(isDeepStrictEqual(ifaces, ["GRPC", "HTTP+JSON", "JSONRPC"]), "the card lists JSON-RPC, HTTP+JSON and gRPC at A2A 1.0", card.supportedInterfaces);

    await run(collector, "default", undefined);
    await run(collector, "JSON-RPC", "JSONRPC");
    await run(collector, "HTTP+JSON", "HTTP+JSON");
    await run(collector, "gRPC", "GRPC");
  } finally {
    collector.stop();
  }
  if (failures > 0) {
    console.log(`${failures} check(s) failed`);
    process.exit(1);
  }
  console.log("A2A 1.x interop: every check passed");
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

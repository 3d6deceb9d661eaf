// carriage-check.mjs: an independent reading of the carriage vectors (conformance/vectors/carriage), in plain
// Node.js with no dependency, so the vectors are not only what this module's Go decoders say. For each vector it
// decodes the carried form by §6 and the rules of conformance/README.md — HTTP list splitting, strict unpadded
// base64url, compact JSON, one JSON object, an array under the pinned key — and requires the vector's queries (as
// JSON values, in order) and its dropped entries. Whether an object is a valid QueryRequest is the schemas' question
// (ajv-check.mjs answers it for the standalone corpus): an entry a vector drops with rule "request" must here be a
// well-carried object, and nothing more is asked of it.
//
//   node conformance/interop/carriage-check.mjs [DIR]    # DIR defaults to conformance/vectors/carriage
//
// Exit status: 0 when every vector agrees, 1 on any disagreement, 2 when the vectors cannot be read.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = process.argv[2] ?? path.join(repoRoot, 'conformance', 'vectors', 'carriage');
const keys = {
  mcp: 'com.agentqueryprotocol/queries',
  a2a: 'https://agentqueryprotocol.com/specification/2026-07-30/a2a/queries',
};
const utf8 = new TextDecoder('utf-8', { fatal: true });

// whitespaceOutsideStrings: JSON text holding insignificant whitespace is not compact.
function whitespaceOutsideStrings(text) {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === ' ' || c === '\t' || c === '\n' || c === '\r') return true;
  }
  return false;
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

// element judges one AQP-Query element: {value} or {rule}.
function element(e) {
  if (!/^[A-Za-z0-9_-]*$/.test(e) || e.length % 4 === 1) return { rule: 'base64url' };
  const bytes = Buffer.from(e, 'base64url');
  if (bytes.toString('base64url') !== e) return { rule: 'base64url' }; // non-zero unused bits
  let text, value;
  try {
    text = utf8.decode(bytes);
    value = JSON.parse(text);
  } catch {
    return { rule: 'object' };
  }
  if (whitespaceOutsideStrings(text)) return { rule: 'compact' };
  return isObject(value) ? { value } : { rule: 'object' };
}

// carried returns the entries a form carries, each {value} or {rule}, or one {index: -1, rule: 'array'}.
function carried(v) {
  if (v.binding === 'https') {
    const out = [];
    for (const h of v.headers) {
      if (h.name.toLowerCase() !== 'aqp-query') continue;
      for (let e of h.value.trim().split(',')) {
        e = e.replace(/^[ \t]+|[ \t]+$/g, '');
        if (e !== '') out.push(element(e));
      }
    }
    return out;
  }
  const holder = v.binding === 'mcp' ? v.toolResult?._meta : (v.message ?? v.task)?.metadata;
  if (!isObject(holder) || !Object.hasOwn(holder, keys[v.binding])) return [];
  const arr = holder[keys[v.binding]];
  if (!Array.isArray(arr)) return [{ index: -1, rule: 'array' }];
  return arr.map((value) => (isObject(value) ? { value } : { rule: 'object' }));
}

function check(v) {
  const entries = carried(v);
  if (entries.length === 1 && entries[0].index === -1) {
    return isDeepStrictEqual(v.dropped ?? [], [{ index: -1, rule: 'array' }]) && v.queries.length === 0
      ? null : `the key holds no array, so nothing is kept and [{index:-1,rule:"array"}] dropped; the vector says otherwise`;
  }
  const wantDropped = new Map((v.dropped ?? []).map((d) => [d.index, d.rule]));
  const kept = [];
  for (const [i, e] of entries.entries()) {
    const want = wantDropped.get(i);
    if (e.rule !== undefined) {
      if (want !== e.rule) return `entry ${i} breaks rule ${e.rule}; the vector says ${want ?? 'kept'}`;
    } else if (want === 'request') {
      // a well-carried object the schemas reject: not this script's question
    } else if (want !== undefined) {
      return `entry ${i} is a well-carried object; the vector drops it with rule ${want}`;
    } else {
      kept.push(e.value);
    }
  }
  for (const i of wantDropped.keys()) {
    if (i >= entries.length) return `the vector drops entry ${i}, but only ${entries.length} are carried`;
  }
  if (!isDeepStrictEqual(kept, v.queries)) return `kept ${kept.length} queries that differ from the vector's ${v.queries.length}`;
  return null;
}

let files;
try {
  files = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
} catch (err) {
  console.error(`carriage-check: ${err.message}`);
  process.exit(2);
}
let passed = 0, failed = 0;
for (const f of files) {
  let doc;
  try {
    doc = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
  } catch (err) {
    console.error(`carriage-check: ${f}: ${err.message}`);
    process.exit(2);
  }
  for (const v of doc.vectors) {
    const problem = check(v);
    if (problem === null) passed++;
    else {
      failed++;
      console.log(`DISAGREE ${v.name} (${f}): ${problem}`);
    }
  }
}
console.log(`carriage-check: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);

// differential: the node half of `make interop`'s differential check (see conformance/internal/differential).
// Reads mutants as NDJSON on stdin — {id, kind, base, mutations, text} — and writes each back with ajv's verdict
// on JSON.parse(text) against the kind's schema: "ajv" true or false, and "ajvErrors" (pointer and keyword of each
// error) when false. ajv is set up as conformance/interop/ajv-check.mjs sets it up: ajv 8, draft 2020-12, strict,
// allErrors, ajv-formats in full mode, the four schemas from spec/. Text JSON.parse rejects gets "ajv": null.
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const specDir = path.join(repoRoot, 'spec');
let Ajv2020, addFormats;
try {
  const require = createRequire(path.join(repoRoot, '.interop', 'package.json'));
  Ajv2020 = require('ajv/dist/2020').default;
  addFormats = require('ajv-formats').default;
} catch (err) {
  console.error(`differential: cannot load ajv from .interop/node_modules (run \`make interop\`): ${err.message}`);
  process.exit(2);
}
const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true });
addFormats(ajv);
const files = {
  request: 'query-request.schema.json',
  response: 'query-response.schema.json',
  receipt: 'query-receipt.schema.json',
};
const validators = {};
ajv.addSchema(JSON.parse(fs.readFileSync(path.join(specDir, 'query-subject.schema.json'), 'utf8')));
for (const [kind, file] of Object.entries(files)) {
  const schema = JSON.parse(fs.readFileSync(path.join(specDir, file), 'utf8'));
  ajv.addSchema(schema);
  validators[kind] = ajv.getSchema(schema.$id);
}

// The Go side stops reading when it refuses to run (a rule without its vector); that is its error to report.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(1);
  throw err;
});

const out = [];
const flush = () => { if (out.length) { process.stdout.write(out.join('')); out.length = 0; } };
const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  if (line === '') return;
  const m = JSON.parse(line);
  const validate = validators[m.kind];
  if (!validate) {
    console.error(`differential: mutant ${m.id}: unknown kind ${m.kind}`);
    process.exit(2);
  }
  let doc;
  try {
    doc = JSON.parse(m.text);
  } catch {
    m.ajv = null;
  }
  if (m.ajv !== null) {
    m.ajv = validate(doc);
    if (!m.ajv) {
      m.ajvErrors = validate.errors.filter((e) => e.keyword !== 'if').map((e) => {
        const member = e.keyword === 'required' ? e.params.missingProperty
          : e.keyword === 'additionalProperties' ? e.params.additionalProperty : undefined;
        const p = member === undefined ? e.instancePath
          : `${e.instancePath}/${String(member).replace(/~/g, '~0').replace(/\//g, '~1')}`;
        return `${p} ${e.keyword}`;
      });
    }
  }
  out.push(JSON.stringify(m) + '\n');
  if (out.length >= 256) flush();
});
rl.on('close', flush);

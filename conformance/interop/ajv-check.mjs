// ajv-check: every standalone conformance vector's expected verdict, checked by an independent JSON Schema
// validator (ajv, draft 2020-12, with ajv-formats asserting `format`). Run from anywhere as
//
//   node conformance/interop/ajv-check.mjs [-v] [DIR]
//
// DIR defaults to conformance/vectors/standalone. ajv is loaded from the repository's .interop/node_modules, which
// `make interop` installs from conformance/interop/package-lock.json. Nothing is fetched: the four schemas are read
// from spec/ and resolve each other by relative $ref.
//
// A vector passes when ajv reaches its verdict and, for an invalid vector, reports exactly its {pointer, keyword}
// set of errors (ajv's wrapper "if" errors aside). A vector with knownDeviations["ajv-formats"] (the recorded
// departure of ajv-formats from an RFC) or knownDeviations["ajv"] (ajv judging the double JSON.parse returns, not
// the number as written) must get the other verdict from ajv; if ajv starts agreeing, the note is stale and the
// run fails.
//
// Output: one DISAGREE, ERRORS DIFFER or STALE line per failing vector, the confirmed deviations, a count of
// skipped vectors per reason (with -v, one line per skipped vector), then `interop: N passed, M failed, K
// skipped`. Exit status: 0 when every checked vector agrees, 1 on any failure or malformed vector or when no
// vector was checked, 2 when the check could not run (ajv not installed, a schema that does not compile, DIR
// missing).

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const interopDir = path.join(repoRoot, '.interop');
const specDir = path.join(repoRoot, 'spec');
const defaultVectorDir = path.join(repoRoot, 'conformance', 'vectors', 'standalone');

// The schema each vector `kind` is validated against; query-subject is only ever reached by $ref.
const schemaFiles = {
  request: 'query-request.schema.json',
  response: 'query-response.schema.json',
  receipt: 'query-receipt.schema.json',
};
const referencedOnly = ['query-subject.schema.json'];

const SKIP_BEYOND = 'beyondJsonSchema';
const SKIP_TEXT = 'documentText';
const skipReasons = {
  [SKIP_BEYOND]: 'the verdict depends on an AQP rule a JSON Schema validator cannot see',
  [SKIP_TEXT]: 'document text that is not one JSON value is not a schema question',
};

function die(message) {
  console.error(`ajv-check: ${message}`);
  process.exit(2);
}

// --- arguments ---
let verbose = false;
let vectorDir = defaultVectorDir;
{
  const positional = [];
  for (const arg of process.argv.slice(2)) {
    if (arg === '-v' || arg === '--verbose') verbose = true;
    else if (arg === '-h' || arg === '--help') {
      console.log('usage: node conformance/interop/ajv-check.mjs [-v|--verbose] [DIR]\n' +
        '  DIR: folder of standalone vector files (*.json, searched recursively);' +
        ' default conformance/vectors/standalone\n  -v:  list every skipped vector');
      process.exit(0);
    } else if (arg.startsWith('-')) die(`unknown flag ${arg} (try --help)`);
    else positional.push(arg);
  }
  if (positional.length > 1) die('at most one DIR');
  if (positional.length === 1) vectorDir = path.resolve(positional[0]);
}

// --- ajv, from .interop/node_modules ---
let Ajv2020, addFormats, ajvVersion, formatsVersion;
try {
  const require = createRequire(path.join(interopDir, 'package.json'));
  Ajv2020 = require('ajv/dist/2020').default;
  addFormats = require('ajv-formats').default;
  ajvVersion = require('ajv/package.json').version;
  formatsVersion = require('ajv-formats/package.json').version;
} catch (err) {
  die(`cannot load ajv from ${path.join(interopDir, 'node_modules')} ` +
    `(run \`make interop\`, which installs it): ${err.message.split('\n')[0]}`);
}

// strict: unknown keywords, unknown formats and ignored schema parts are errors. strictRequired is off: it wants
// every name in `required` declared in `properties` of the same subschema, and the normative request schema's
// `if/then` branches (`then: {required: ["consentScope"]}`) declare them at the root instead, which 2020-12 allows.
const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true });
addFormats(ajv); // mode "full"; formats are asserted (AQP decision D4)

const validators = {};
try {
  for (const file of [...referencedOnly, ...Object.values(schemaFiles)]) {
    ajv.addSchema(JSON.parse(fs.readFileSync(path.join(specDir, file), 'utf8')));
  }
  for (const [kind, file] of Object.entries(schemaFiles)) {
    const id = JSON.parse(fs.readFileSync(path.join(specDir, file), 'utf8')).$id;
    validators[kind] = ajv.getSchema(id);
    if (!validators[kind]) throw new Error(`${file}: no schema with $id ${id}`);
  }
} catch (err) {
  die(`the schemas in spec/ do not load: ${err.message}`);
}

// --- the vectors ---
function listJsonFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listJsonFiles(p));
    else if (entry.isFile() && entry.name.endsWith('.json')) out.push(p);
  }
  return out.sort();
}

let files;
try {
  if (!fs.statSync(vectorDir).isDirectory()) die(`${vectorDir} is not a directory`);
  files = listJsonFiles(vectorDir);
} catch (err) {
  die(`cannot read ${vectorDir}: ${err.message}`);
}

// A path as the user would type it: relative to the working directory when inside it, absolute otherwise.
function shown(p) {
  const rel = path.relative(process.cwd(), p);
  return rel === '' ? '.' : rel.startsWith('..') || path.isAbsolute(rel) ? p : rel;
}

const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
const verdict = (v) => (v ? 'valid' : 'invalid');

// An ajv error as the vectors write theirs: an RFC 6901 pointer naming the missing or extra member itself for
// required and additionalProperties, then the keyword, then ajv's message.
function describe(e) {
  let pointer = e.instancePath;
  const member = e.keyword === 'required' ? e.params.missingProperty
    : e.keyword === 'additionalProperties' ? e.params.additionalProperty : undefined;
  if (member !== undefined) pointer += '/' + String(member).replace(/~/g, '~0').replace(/\//g, '~1');
  return `${pointer || '""'} ${e.keyword} (${e.message})`;
}

// The {pointer, keyword} set of ajv's errors, in the vectors' form. ajv adds an "if" error beside the failures of
// a "then" or "else" branch, and a "false schema" error where the vectors say "false"; neither is a cause of its
// own, so "if" is dropped and "false schema" renamed.
function errorSet(errors) {
  const out = new Set();
  for (const e of errors) {
    if (e.keyword === 'if') continue;
    let pointer = e.instancePath;
    const member = e.keyword === 'required' ? e.params.missingProperty
      : e.keyword === 'additionalProperties' ? e.params.additionalProperty : undefined;
    if (member !== undefined) pointer += '/' + String(member).replace(/~/g, '~0').replace(/\//g, '~1');
    out.add(`${pointer} ${e.keyword === 'false schema' ? 'false' : e.keyword}`);
  }
  return out;
}

let passed = 0;
let errorsAgree = 0;
const errorDisagreements = [];
let failed = 0;
const deviations = [];
const skipped = { [SKIP_BEYOND]: [], [SKIP_TEXT]: [] };

for (const file of files) {
  const rel = shown(file);
  let envelope;
  try {
    envelope = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    console.log(`MALFORMED ${rel}: not one JSON value: ${err.message}`);
    failed++;
    continue;
  }
  if (envelope === null || typeof envelope !== 'object' || !Array.isArray(envelope.vectors)) {
    console.log(`MALFORMED ${rel}: not an envelope {"description": ..., "vectors": [...]}`);
    failed++;
    continue;
  }
  envelope.vectors.forEach((vec, i) => {
    const isObject = vec !== null && typeof vec === 'object' && !Array.isArray(vec);
    const name = isObject && typeof vec.name === 'string' && vec.name !== '' ? vec.name : `${rel}#/vectors/${i}`;
    const problem = !isObject ? 'not an object'
      : name !== vec.name ? 'no "name"'
      : !has(schemaFiles, vec.kind) ? `"kind" ${JSON.stringify(vec.kind)} is not request, response or receipt`
      : typeof vec.valid !== 'boolean' ? '"valid" is not a boolean'
      : has(vec, 'document') === has(vec, 'documentText') ? 'needs exactly one of "document" and "documentText"'
      : has(vec, 'documentText') && typeof vec.documentText !== 'string' ? '"documentText" is not a string'
      : has(vec, SKIP_BEYOND) && (typeof vec[SKIP_BEYOND] !== 'string' || vec[SKIP_BEYOND] === '')
        ? `"${SKIP_BEYOND}" is not a string saying why`
      : null;
    if (problem) {
      console.log(`MALFORMED ${name} (${rel}): ${problem}`);
      failed++;
      return;
    }
    if (has(vec, SKIP_BEYOND)) {
      skipped[SKIP_BEYOND].push(`${name}: ${vec[SKIP_BEYOND]}`);
      return;
    }
    if (has(vec, SKIP_TEXT)) {
      skipped[SKIP_TEXT].push(name);
      return;
    }
    const validate = validators[vec.kind];
    const got = validate(vec.document);
    // ajv-formats: a format check looser or stricter than its RFC; ajv: ajv itself (it validates what JSON.parse
    // returns, so a number is rounded to a double first).
    const deviator = ['ajv-formats', 'ajv'].find((k) => vec.knownDeviations && vec.knownDeviations[k]);
    const deviation = deviator && vec.knownDeviations[deviator];
    if (deviation) {
      if (got === vec.valid) {
        console.log(`STALE ${name} (${rel}): knownDeviations says ${deviator} disagrees (${deviation}), ` +
          'but ajv now agrees: remove the deviation from the vector');
        failed++;
      } else {
        deviations.push(`${name}: ${deviator}: ${deviation}`);
      }
      return;
    }
    if (got === vec.valid) {
      if (!vec.valid) {
        // Beyond the verdict: does ajv name the same failures (pointer and keyword) as the vector?
        const want = new Set((vec.errors || []).map((e) => `${e.pointer} ${e.keyword}`));
        const have = errorSet(validate.errors);
        const same = want.size === have.size && [...want].every((x) => have.has(x));
        if (!same) {
          errorDisagreements.push(`${name}: vector [${[...want].join(', ')}], ajv [${[...have].join(', ')}]`);
          failed++;
          return;
        }
        errorsAgree++;
      }
      passed++;
      return;
    }
    const errors = got ? 'none' : validate.errors.map(describe).join('; ');
    console.log(`DISAGREE ${name} (${rel}): expected ${verdict(vec.valid)}, ajv says ${verdict(got)}; ` +
      `ajv errors: ${errors}`);
    failed++;
  });
}

if (deviations.length > 0) {
  console.log(`known deviations: ajv reached the other verdict, as the vectors record, on ${deviations.length}:`);
  for (const line of deviations) console.log(`  deviation ${line}`);
}
console.log(`errors: on ${errorsAgree} of ${errorsAgree + errorDisagreements.length} invalid vectors ajv reports ` +
  'exactly the vector\'s {pointer, keyword} set');
for (const line of errorDisagreements) console.log(`ERRORS DIFFER ${line}`);
const skippedCount = skipped[SKIP_BEYOND].length + skipped[SKIP_TEXT].length;
for (const reason of [SKIP_BEYOND, SKIP_TEXT]) {
  if (skipped[reason].length === 0) continue;
  console.log(`skipped ${skipped[reason].length} with ${reason}: ${skipReasons[reason]}`);
  if (verbose) for (const line of skipped[reason]) console.log(`  skip ${line}`);
}
console.log(`ajv ${ajvVersion} (draft 2020-12), ajv-formats ${formatsVersion} (full); ` +
  `${files.length} file(s) in ${shown(vectorDir)}`);
if (passed + failed === 0) console.log('ajv-check: no vector was checked');
console.log(`interop: ${passed} passed, ${failed} failed, ${skippedCount} skipped`);
process.exit(failed > 0 || passed + failed === 0 ? 1 : 0);

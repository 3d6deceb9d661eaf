// reencode: the node half of the re-encoding check (see conformance/internal/reencode). Reads the batch the Go side
// emits on stdin and writes it back with every document's text as JSON.stringify(JSON.parse(text)) — what a
// JavaScript respondent (the TypeScript MCP SDK) sends when it retries its own response — and every number as
// JSON.stringify(JSON.parse(text)), ECMAScript's (RFC 8785's) number form. Uses nothing but node itself.
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', () => {
  const batch = JSON.parse(input);
  for (const d of batch.documents) d.reencoded = JSON.stringify(JSON.parse(d.text));
  for (const n of batch.numbers) n.stringified = JSON.stringify(JSON.parse(n.text));
  process.stdout.write(JSON.stringify(batch));
});

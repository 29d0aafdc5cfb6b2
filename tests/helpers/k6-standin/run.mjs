// node run.mjs SCRIPT ENV_JSON: runs one iteration of an exported script, prints what happened as JSON.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [script, envJson] = process.argv.slice(2);
const here = dirname(new URL(import.meta.url).pathname);
globalThis.__ENV = JSON.parse(envJson);
globalThis.__k6Checks = [];
globalThis.__k6Requests = [];
globalThis.open = (path, mode) => {
  const bytes = readFileSync(resolve(dirname(script), path));
  return mode === 'b'
    ? bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)
    : bytes.toString('utf8');
};
const source = readFileSync(script, 'utf8')
  .replace("import http from 'k6/http';", `import http from '${pathToFileURL(resolve(here, 'http.mjs')).href}';`)
  .replace("import { check } from 'k6';", `import { check } from '${pathToFileURL(resolve(here, 'k6.mjs')).href}';`);
const runnable = resolve(dirname(script), `.standin-${process.pid}.mjs`);
writeFileSync(runnable, source);
let error;
try {
  const module = await import(pathToFileURL(runnable).href);
  module.default();
} catch (caught) {
  error = caught instanceof Error ? caught.message : String(caught);
}
process.stdout.write(JSON.stringify({ checks: globalThis.__k6Checks, requests: globalThis.__k6Requests, error }));

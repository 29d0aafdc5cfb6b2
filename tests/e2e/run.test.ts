/**
 * `dial run` end to end: the built CLI against `dial echo` (in-process) and the fail-server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { runCli, stripAnsi, tempDir } from '../helpers/cli.js';
import { startFailServer, type FailServer } from '../helpers/fail-server.js';
import { startEchoServer, type EchoServer } from '../../src/core/echo/server.js';
import { runReportSchema, type RunReport } from '../../src/core/report/json-schema.js';

const FIXTURES = resolve(import.meta.dirname, '../fixtures/run');
let fail: FailServer;
let echo: EchoServer;

beforeAll(async () => {
  [fail, echo] = await Promise.all([startFailServer(), startEchoServer({ port: 0 })]);
});
afterAll(async () => {
  await Promise.all([fail?.close(), echo?.close()]);
});

/** A fresh copy of the fixtures (snapshots are written next to the files). */
function workspace(): string {
  const dir = tempDir('dial-run-');
  cpSync(FIXTURES, dir, { recursive: true });
  mkdirSync(join(dir, '.git'));
  return dir;
}

function vars(): string[] {
  return ['--var', `host=${fail.url}`, '--var', `echo=${echo.url}`];
}

async function run(args: string[], cwd: string, env: Record<string, string> = {}) {
  const result = await runCli(['run', ...args, ...vars()], { cwd, env });
  return { ...result, stdout: stripAnsi(result.stdout), stderr: stripAnsi(result.stderr) };
}

function readJson(path: string): RunReport {
  const data = JSON.parse(readFileSync(path, 'utf8'));
  const parsed = runReportSchema.safeParse(data);
  expect(parsed.success).toBe(true);
  return data as RunReport;
}

describe('dial run: assertions', () => {
  it('every predicate passes (exit 0), chaining a request reference', async () => {
    const dir = workspace();
    const result = await run(
      ['predicates-pass.http', '--reporter', 'pretty', '--reporter', `json:${join(dir, 'r.json')}`],
      dir,
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('✓ predicates-pass.http › widget  200');
    expect(result.stdout).toContain('✓ predicates-pass.http › echo args  200');
    const report = readJson(join(dir, 'r.json'));
    expect(report.totals).toMatchObject({ requests: 2, passed: 2 });
    expect(report.files[0].requests[0].assertions).toHaveLength(29);
    expect(report.files[0].requests[0].assertions.every((a) => a.passed)).toBe(true);
  });

  it('every predicate fails with the assertion as written, file:line, expected and actual (exit 1)', async () => {
    const dir = workspace();
    const result = await run(
      ['predicates-fail.http', '--reporter', `json:${join(dir, 'r.json')}`, '--reporter', 'pretty'],
      dir,
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('✗ ?? status == 201  predicates-fail.http:4');
    expect(result.stdout).toMatch(/expected: == 201\n\s+actual: {3}200/);
    expect(result.stdout).toContain('?? body $.missing exists  predicates-fail.http:11');
    const report = readJson(join(dir, 'r.json'));
    const assertions = report.files[0].requests[0].assertions;
    const lines = readFileSync(join(dir, 'predicates-fail.http'), 'utf8').split('\n');
    expect(assertions.length).toBe(lines.filter((l) => l.startsWith('??')).length);
    for (const a of assertions) {
      expect(a.passed, a.source).toBe(false);
      expect(lines[a.line! - 1]).toBe(`?? ${a.source}`);
    }
  });

  it('a JetBrains client.test file and an httpyac ?? file run unchanged', async () => {
    const dir = workspace();
    const result = await run(
      ['jetbrains', 'httpyac', '--reporter', `json:${join(dir, 'r.json')}`, '--reporter', 'pretty', '-v'],
      dir,
    );
    expect(result.code).toBe(0);
    const report = readJson(join(dir, 'r.json'));
    expect(report.totals).toMatchObject({ files: 2, requests: 4, passed: 4 });
    const jb = report.files.find((f) => f.path === 'jetbrains/login.http')!;
    expect(jb.requests[0].assertions).toEqual([{ kind: 'test', source: 'logged in', line: 7, passed: true }]);
    expect(jb.requests[1].assertions[0]).toMatchObject({ kind: 'test', source: 'token sent', passed: true });
    expect(result.stdout).toContain('log: got token');
  });

  it('a JSON Schema failure lists the failing instance paths', async () => {
    const dir = workspace();
    writeFileSync(
      join(dir, 'widget.schema.json'),
      JSON.stringify({ type: 'object', properties: { id: { type: 'string' }, tags: { type: 'array', maxItems: 1 } } }),
    );
    writeFileSync(join(dir, 'schema.http'), 'GET {{host}}/ok\n\n?? body schema ./widget.schema.json\n');
    const result = await run(['schema.http'], dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('?? body schema ./widget.schema.json  schema.http:3');
    expect(result.stdout).toContain('$.id: must be string');
    expect(result.stdout).toContain('$.tags: must NOT have more than 1 items');
  });

  it('snapshots: written on first run, pass, fail with a structural diff, update', async () => {
    const dir = workspace();
    writeFileSync(join(dir, 'snap.http'), '### widget\nGET {{host}}/ok\n\n?? body snapshot ignore $.createdAt\n');
    const first = await run(['snap.http', '-v'], dir);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('snapshot written');
    const snapPath = join(dir, '__snapshots__', 'snap.http.snap.json');
    const stored = JSON.parse(readFileSync(snapPath, 'utf8'));
    expect(stored.widget).toMatchObject({ id: 42, name: 'widget' });
    expect(stored.widget.createdAt).toBeUndefined();
    expect((await run(['snap.http'], dir)).code).toBe(0);
    stored.widget.name = 'gadget';
    stored.widget.tags = ['a'];
    writeFileSync(snapPath, JSON.stringify(stored));
    const mismatch = await run(['snap.http'], dir);
    expect(mismatch.code).toBe(1);
    expect(mismatch.stdout).toContain('$.name: "gadget" -> "widget"');
    expect(mismatch.stdout).toContain('$.tags[1]: (none) -> "b"');
    expect(mismatch.stdout).toContain('--update-snapshots');
    const update = await run(['snap.http', '--update-snapshots'], dir);
    expect(update.code).toBe(0);
    expect(JSON.parse(readFileSync(snapPath, 'utf8')).widget.name).toBe('widget');
    expect((await run(['snap.http'], dir)).code).toBe(0);
  });
});

describe('dial run: retries, timeouts, transport errors, bail', () => {
  it('a flaky request passes on its second attempt with --retry', async () => {
    const dir = workspace();
    writeFileSync(join(dir, 'flaky.http'), `### flaky\nGET {{host}}/flaky/${Date.now()}?fails=1\n\n?? status == 200\n`);
    const result = await run(
      [
        'flaky.http',
        '--retry',
        '2',
        '--retry-delay',
        '10ms',
        '--reporter',
        `json:${join(dir, 'r.json')}`,
        '--reporter',
        'pretty',
      ],
      dir,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('(2 attempts)');
    const request = readJson(join(dir, 'r.json')).files[0].requests[0];
    expect(request).toMatchObject({ status: 'passed', attempts: 2 });
  });

  it('# @retry retries transport errors; without retries a reset is an errored request, not a crash', async () => {
    const dir = workspace();
    writeFileSync(
      join(dir, 'reset.http'),
      `### reset\n# @retry 1 10ms\nGET {{host}}/reset\n\n### after\nGET {{host}}/ok\n\n?? status == 200\n`,
    );
    const result = await run(['reset.http', '--reporter', `json:${join(dir, 'r.json')}`], dir);
    expect(result.code).toBe(1);
    const [reset, after] = readJson(join(dir, 'r.json')).files[0].requests;
    expect(reset).toMatchObject({
      status: 'errored',
      attempts: 2,
      error: { code: expect.stringMatching(/^E_(CONNRESET|NETWORK)$/) },
    });
    expect(after.status).toBe('passed');
  });

  it('# @timeout and --timeout error slow requests with E_TIMEOUT', async () => {
    const dir = workspace();
    writeFileSync(
      join(dir, 'slow.http'),
      `### slow\n# @timeout 200ms\nGET {{host}}/slow?ms=5000\n\n### also slow\nGET {{host}}/slow?ms=5000\n`,
    );
    const result = await run(['slow.http', '--timeout', '300ms', '--reporter', `json:${join(dir, 'r.json')}`], dir);
    expect(result.code).toBe(1);
    const requests = readJson(join(dir, 'r.json')).files[0].requests;
    expect(requests.map((r) => r.error?.code)).toEqual(['E_TIMEOUT', 'E_TIMEOUT']);
  });

  it('--bail stops after the first failure and reports the rest as skipped', async () => {
    const dir = workspace();
    const result = await run(
      ['predicates-fail.http', 'shards', '--bail', '--concurrency', '1', '--reporter', `json:${join(dir, 'r.json')}`],
      dir,
    );
    expect(result.code).toBe(1);
    const report = readJson(join(dir, 'r.json'));
    expect(report.totals).toMatchObject({ requests: 8, failed: 1, skipped: 7, passed: 0 });
  });
});

describe('dial run: shards, reporters, merge', () => {
  it('--shard 1/3, 2/3, 3/3 cover every file exactly once; merge combines them', async () => {
    const dir = workspace();
    const paths: string[] = [];
    for (const i of [1, 2, 3]) {
      const path = join(dir, `shard${i}.json`);
      paths.push(path);
      const result = await run(['shards', '--shard', `${i}/3`, '--reporter', `json:${path}`], dir);
      expect(result.code).toBe(0);
    }
    const files = paths.flatMap((p) => readJson(p).files.map((f) => f.path));
    expect(files.sort()).toEqual([1, 2, 3, 4, 5, 6, 7].map((i) => `shards/s${i}.http`));
    expect(new Set(files).size).toBe(7);
    expect(readJson(paths[0]).shard).toEqual({ index: 1, total: 3 });

    const junitPath = join(dir, 'merged.xml');
    const merged = await runCli([
      'report',
      'merge',
      ...paths,
      '--reporter',
      `junit:${junitPath}`,
      '--reporter',
      `json:${join(dir, 'merged.json')}`,
      '--reporter',
      'tap',
    ]);
    expect(merged.stderr).toBe('');
    expect(merged.code).toBe(0);
    expect(merged.stdout).toContain('1..7');
    const xml = readFileSync(junitPath, 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
    expect(doc.testsuites.tests).toBe('7');
    expect(doc.testsuites.testsuite).toHaveLength(7);
    const mergedJson = readJson(join(dir, 'merged.json'));
    expect(mergedJson).toMatchObject({ merged: 3, totals: { files: 7, requests: 7, passed: 7 } });
  });

  it('merge refuses a bad report with exit 3 naming it', async () => {
    const dir = tempDir();
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"tool":"other"}');
    const result = await runCli(['report', 'merge', bad]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(bad);
  });

  it('reporter places that cannot work are refused: two reports on stdout (2), an unwritable path (E_IO), one report merged twice (2)', async () => {
    const dir = workspace();
    writeFileSync(join(dir, 'one.http'), 'GET {{host}}/ok\n');
    const both = await run(['one.http', '--reporter', 'json', '--reporter', 'tap'], dir);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain(
      'error[E_USAGE]: --reporter json and --reporter tap would both write to standard output',
    );
    expect(both.stdout).toBe('');
    const blocked = join(dir, 'one.http', 'report.json'); // a "folder" that is a file
    const unwritable = await run(['one.http', '--reporter', `json:${blocked}`], dir);
    expect(unwritable.stderr).toContain(`error[E_IO]: cannot write the report ${blocked}`);
    expect(unwritable.stderr).not.toMatch(/\n\s+at /);
    const report = join(dir, 'r.json');
    expect((await run(['one.http', '--reporter', `json:${report}`], dir)).code).toBe(0);
    const twice = await runCli(['report', 'merge', report, report]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('is given twice');
  });

  it('JUnit, TAP and github reporters for a failing run', async () => {
    const dir = workspace();
    const junit = join(dir, 'out', 'junit.xml');
    const result = await run(
      [
        'predicates-pass.http',
        'predicates-fail.http',
        '--reporter',
        `junit:${junit}`,
        '--reporter',
        'tap',
        '--reporter',
        'github:' + join(dir, 'gh.txt'),
        '--reporter',
        `html:${join(dir, 'r.html')}`,
      ],
      dir,
    );
    expect(result.code).toBe(1);
    const tapLines = result.stdout.split('\n');
    expect(tapLines[0]).toBe('TAP version 13');
    expect(tapLines[1]).toBe('1..3');
    expect(tapLines.filter((l) => /^(not )?ok \d+ - /.test(l))).toHaveLength(3);
    expect(tapLines.filter((l) => /^not ok/.test(l))).toEqual(['not ok 1 - predicates-fail.http › wrong']);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(readFileSync(junit, 'utf8'));
    const suites = doc.testsuites.testsuite;
    expect(suites.map((s: { name: string }) => s.name)).toEqual(['predicates-fail.http', 'predicates-pass.http']);
    expect(suites[0].testcase.failure.message).toContain('?? status == 201');
    expect(readFileSync(join(dir, 'gh.txt'), 'utf8')).toMatch(
      /^::error file=predicates-fail\.http,line=4,title=wrong::/,
    );
    expect(readFileSync(join(dir, 'r.html'), 'utf8')).toContain('dial run failed');
  });

  it('secrets are masked in every report', async () => {
    const dir = workspace();
    writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ dev: { user: 'ada' } }));
    writeFileSync(
      join(dir, 'http-client.private.env.json'),
      JSON.stringify({ dev: { apiKey: 'sk-live-SECRET-9876' } }),
    );
    writeFileSync(
      join(dir, 'secret.http'),
      `### with key\nPOST {{echo}}/post\nX-Api-Key: {{apiKey}}\nAuthorization: Bearer {{apiKey}}\n\n{"key": "{{apiKey}}"}\n\n?? body $.json.key == nope\n?? header x-nope == {{apiKey}}\n\n> {%\n  client.log("key is " + request.environment.get("apiKey"));\n%}\n`,
    );
    const out = ['json', 'junit', 'tap', 'html', 'github', 'pretty', 'dot'].map(
      (name) => `${name}:${join(dir, `r.${name}`)}`,
    );
    const result = await run(
      ['secret.http', '-e', 'dev', '--output-failed', ...out.flatMap((o) => ['--reporter', o]), '--reporter', 'pretty'],
      dir,
    );
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).not.toContain('sk-live-SECRET-9876');
    expect(result.stdout).toContain('••••');
    for (const name of ['json', 'junit', 'tap', 'html', 'github', 'pretty', 'dot']) {
      const text = readFileSync(join(dir, `r.${name}`), 'utf8');
      expect(text, name).not.toContain('sk-live-SECRET-9876');
    }
    const report = readJson(join(dir, 'r.json'));
    expect(report.files[0].requests[0].logs).toEqual(['key is ••••']);
    expect(report.files[0].requests[0].exchange?.request.headers).toContainEqual(['Authorization', 'Bearer ••••']);
  });
});

describe('dial run: scripts', () => {
  it('a script error fails the request with the .http line; --no-scripts skips scripts', async () => {
    const dir = workspace();
    writeFileSync(
      join(dir, 'script.http'),
      'GET {{host}}/ok\n\n> {%\n  const x = 1;\n  response.body.nope.deeper;\n%}\n',
    );
    const result = await run(['script.http'], dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/error\[E_SCRIPT\] \(script\.http:5\): script error: TypeError/);
    expect((await run(['script.http', '--no-scripts'], dir)).code).toBe(0);
  });

  it('unsupported JetBrains APIs fail with a clear E_SCRIPT message; crypto works', async () => {
    const dir = workspace();
    writeFileSync(join(dir, 'oauth.http'), 'GET {{host}}/ok\n\n> {%\n  client.oauth2.token();\n%}\n');
    const result = await run(['oauth.http'], dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("'client.oauth2' is not supported in dial scripts");
    writeFileSync(
      join(dir, 'crypto.http'),
      'GET {{host}}/ok\n\n> {%\n  client.test("hmac", () => client.assert(crypto.hmac.sha256().withTextSecret("k").updateWithText("m").digest().toHex().length === 64));\n%}\n',
    );
    expect((await run(['crypto.http'], dir)).code).toBe(0);
  });

  it('cookies persist within a file, not across files, and not with @no-cookie-jar', async () => {
    const dir = workspace();
    writeFileSync(
      join(dir, 'c1.http'),
      '### set\nGET {{host}}/cookie/set?sid=abc\n\n### get\nGET {{host}}/cookie/get\n\n?? body $.cookie == sid=abc\n\n### none\n# @no-cookie-jar\nGET {{host}}/cookie/get\n\n?? body $.cookie isNull\n',
    );
    writeFileSync(join(dir, 'c2.http'), 'GET {{host}}/cookie/get\n\n?? body $.cookie isNull\n');
    const result = await run(['c1.http', 'c2.http'], dir);
    expect(result.stdout).not.toContain('✗');
    expect(result.code).toBe(0);
  });
});

describe('dial run: exit codes and usage', () => {
  it('a parse error stops the run before anything is sent (exit 3)', async () => {
    const dir = workspace();
    const before = fail.hits('/ok');
    writeFileSync(join(dir, 'broken.http'), 'GET {{host}}/ok\n\n?? status wat == 200\n');
    const result = await run(['shards/s1.http', 'broken.http'], dir);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/E_PARSE.*broken\.http:3/);
    expect(fail.hits('/ok')).toBe(before);
  });

  it('usage errors exit 2', async () => {
    const dir = workspace();
    for (const args of [
      ['--shard', '4/3'],
      ['--reporter', 'xunit'],
      ['--concurrency', '0'],
      ['--retry-delay', 'soon'],
    ]) {
      const result = await run(['shards', ...args], dir);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/error\[E_USAGE\]/);
    }
  });

  it('an unresolved variable errors that request, the others still run, and the run exits 3 (invalid input)', async () => {
    const dir = workspace();
    writeFileSync(
      join(dir, 'undef.http'),
      '### bad\nGET {{host}}/ok?x={{nope}}\n\n### good\nGET {{host}}/ok\n\n?? status == 200\n',
    );
    const result = await run(['undef.http'], dir);
    expect(result.code).toBe(3);
    expect(result.stdout).toContain('error[E_VAR_UNDEFINED]');
    expect(result.stdout).toContain("'nope'");
    expect(result.stdout).toContain('1 passed, 0 failed, 1 errored');
  });

  it('# @skip requests are reported skipped with their reason and never sent', async () => {
    const dir = workspace();
    writeFileSync(
      join(dir, 'skip.http'),
      '### later\n# @skip not ready yet\nGET {{host}}/skipped-path\n\n### now\nGET {{host}}/ok\n',
    );
    const result = await run(['skip.http', '--reporter', 'dot'], dir);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('1 passed, 0 failed, 0 errored, 1 skipped');
    expect(fail.hits('/skipped-path')).toBe(0);
    const report = join(dir, 'skip.json');
    await run(['skip.http', '--reporter', `json:${report}`], dir);
    expect(readJson(report).files[0].requests[0]).toMatchObject({
      name: 'later',
      status: 'skipped',
      skipReason: 'not ready yet',
    });
  });

  it('a broken env file or an unknown -e stops the run before anything is sent (exit 3)', async () => {
    const dir = workspace();
    writeFileSync(join(dir, 'one.http'), 'GET {{host}}/never-sent\n');
    writeFileSync(join(dir, 'http-client.env.json'), '{"dev": {"a": 1} "x": {}}');
    const broken = await run(['one.http', '-e', 'dev'], dir);
    expect(broken.code).toBe(3);
    expect(broken.stderr).toContain('error[E_ENV]');
    expect(broken.stderr).toContain('invalid JSON');
    writeFileSync(join(dir, 'http-client.env.json'), '{"dev": {"a": "1"}}');
    const unknown = await run(['one.http', '-e', 'nosuch'], dir);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain("error[E_ENV]: unknown environment 'nosuch'");
    expect(fail.hits('/never-sent')).toBe(0);
  });

  it('no .http files is invalid input (exit 3)', async () => {
    const dir = tempDir();
    const result = await runCli(['run', dir]);
    expect(result.code).toBe(3);
    expect(existsSync(dir)).toBe(true);
  });
});

// A name set in a JetBrains-dialect file (`@name = …`, client.global.set, request.variables.set)
// that the selected environment also defines, and a private env value over a different public
// one: dial keeps its order (the file's value, the private one) and warns where JetBrains'
// documentation would send the environment's (the public) value instead.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSession } from '../../../src/core/session/index.js';
import { onParseWarning } from '../../../src/core/httpfile/warnings.js';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';
import type { ParseWarning } from '../../../src/core/httpfile/types.js';
import { checkFiles } from '../../../src/core/check/index.js';
import { scriptSetSites } from '../../../src/core/vars/precedence.js';
import { tempDir } from '../../helpers/cli.js';

function workspace(files: Record<string, string>): string {
  const root = tempDir('dial-precedence-');
  mkdirSync(join(root, '.git'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function collect(): ParseWarning[] {
  const warnings: ParseWarning[] = [];
  onParseWarning((warning) => warnings.push(warning));
  return warnings;
}

afterEach(() => onParseWarning(undefined));

const ENV = JSON.stringify({ dev: { host: 'http://env.example', sub: 'ENV-SUB', same: 'x' } });

describe('scriptSetSites', () => {
  it('finds literal-name set calls with their .http line and a literal value when there is one', () => {
    const file = parseHttpFile(
      'GET http://a\n\n> {%\n  client.global.set("sub", response.body.id);\n  request.variables.set(\'k\', "v");\n  client.global.set(name, 1);\n%}\n',
      'api.http',
    );
    expect(scriptSetSites(file)).toEqual([
      { name: 'sub', setter: 'client.global.set', line: 4 },
      { name: 'k', setter: 'request.variables.set', line: 5, literal: 'v' },
    ]);
  });
});

describe('session: in-file values over the environment (JetBrains dialect)', () => {
  it('@name over a different env value: the file value is sent, one warning at the @ line', async () => {
    const warnings = collect();
    const root = workspace({
      'http-client.env.json': ENV,
      'api.http': '@host = http://file.example\n\nGET {{host}}/a\n\n###\nGET {{host}}/b\n',
    });
    const session = createSession({ workspaceRoot: root, processEnv: {}, environment: 'dev' });
    const file = await session.loadFile(join(root, 'api.http'));
    expect((await session.prepare(file, file.requests[0])).request.url).toBe('http://file.example/a');
    expect((await session.prepare(file, file.requests[1])).request.url).toBe('http://file.example/b');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ file: 'api.http', line: 1 });
    expect(warnings[0].message).toBe(
      "'host' is set here by '@host = …' and also defined in environment 'dev' of http-client.env.json: dial uses the value set here; JetBrains' documentation ranks environment variables first and would send 'http://env.example' instead",
    );
    expect(warnings[0].hint).toContain("drop 'host' from environment 'dev' of http-client.env.json");
  });

  it('no warning when the values are the same, or when no environment defines the name', async () => {
    const warnings = collect();
    const root = workspace({
      'http-client.env.json': ENV,
      'api.http': '@same = x\n@other = y\n\nGET http://h/{{same}}/{{other}}\n',
    });
    const session = createSession({ workspaceRoot: root, processEnv: {}, environment: 'dev' });
    const file = await session.loadFile(join(root, 'api.http'));
    expect((await session.prepare(file, file.requests[0])).request.url).toBe('http://h/x/y');
    expect(warnings).toEqual([]);
  });

  it('client.global.set in a handler: warned at the call line when the value differs', async () => {
    const warnings = collect();
    const root = workspace({
      'http-client.env.json': ENV,
      'api.http':
        '### create\nPOST http://h/subs\n\n> {%\n  client.global.set("sub", response.body.id);\n%}\n\n### use\nGET http://h/subs/{{sub}}\n',
    });
    const session = createSession({ workspaceRoot: root, processEnv: {}, environment: 'dev' });
    const file = await session.loadFile(join(root, 'api.http'));
    // What the handler of the first request leaves (the script sandbox is tested elsewhere).
    session.globals.set('sub', 'S-42');
    expect((await session.prepare(file, file.requests[1])).request.url).toBe('http://h/subs/S-42');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ file: 'api.http', line: 5 });
    expect(warnings[0].message).toContain("'sub' is set here by client.global.set('sub', …)");
    expect(warnings[0].message).toContain("would send 'ENV-SUB' instead");
  });

  it('a global set outside the file (an external script, another file) is warned at the request line', async () => {
    const warnings = collect();
    const root = workspace({ 'http-client.env.json': ENV, 'api.http': '\nGET http://h/{{sub}}\n' });
    const session = createSession({ workspaceRoot: root, processEnv: {}, environment: 'dev' });
    const file = await session.loadFile(join(root, 'api.http'));
    session.globals.set('sub', 'S-1');
    await session.prepare(file, file.requests[0]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0].line).toBe(2);
    expect(warnings[0].message).toContain('in a script outside this file');
  });

  it('request.variables.set in a pre-request script: warned at its line; a secret env value is not shown', async () => {
    const warnings = collect();
    const root = workspace({
      'http-client.private.env.json': JSON.stringify({ dev: { token: 'very-secret' } }),
      'api.http': '< {% request.variables.set("token", "mine") %}\nGET http://h/\nAuthorization: Bearer {{token}}\n',
    });
    const session = createSession({ workspaceRoot: root, processEnv: {}, environment: 'dev' });
    const file = await session.loadFile(join(root, 'api.http'));
    const { request } = await session.prepare(file, file.requests[0], {
      requestVariables: new Map([['token', 'mine']]),
    });
    expect(request.headers).toContainEqual(['Authorization', 'Bearer mine']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0].line).toBe(1);
    expect(warnings[0].message).toContain("request.variables.set('token', …)");
    expect(warnings[0].message).toContain('its value (secret)');
    expect(warnings[0].message).not.toContain('very-secret');
  });

  it('other dialects are not warned (`# @dialect kulala`)', async () => {
    const warnings = collect();
    const root = workspace({
      'http-client.env.json': ENV,
      'api.http': '# @dialect kulala\n@host = http://file.example\n\nGET {{host}}/a\n',
    });
    const session = createSession({ workspaceRoot: root, processEnv: {}, environment: 'dev' });
    const file = await session.loadFile(join(root, 'api.http'));
    expect((await session.prepare(file, file.requests[0])).request.url).toBe('http://file.example/a');
    expect(warnings).toEqual([]);
  });
});

describe('private env values over public ones', () => {
  // JetBrains' page lists public over private, but Rider and IntelliJ send the private value (as
  // httpyac changed to match them: AnWeber/vscode-httpyac#175); dial does too, and says nothing.
  it('the private value is used, without a warning', async () => {
    const warnings = collect();
    const root = workspace({
      'http-client.env.json': JSON.stringify({ dev: { host: 'http://public.example' } }),
      'http-client.private.env.json': JSON.stringify({ dev: { host: 'http://private.example' } }),
      'api.http': 'GET {{host}}/a\n',
    });
    const session = createSession({ workspaceRoot: root, processEnv: {}, environment: 'dev' });
    const file = await session.loadFile(join(root, 'api.http'));
    expect((await session.prepare(file, file.requests[0])).request.url).toBe('http://private.example/a');
    expect(warnings).toEqual([]);
  });
});

describe('dial check', () => {
  it('reports each conflicting name once per file as a warning at its line, not an error (a private value over a public one is no conflict)', async () => {
    const root = workspace({
      'http-client.env.json': JSON.stringify({
        dev: { host: 'http://env', sub: 'ENV', same: 'x', key: 'k1' },
        prod: { host: 'http://prod', same: 'x', key: 'k1' },
      }),
      'http-client.private.env.json': JSON.stringify({ dev: { key: 'k2' } }),
      'api.http':
        '@host = http://file\n@same = x\n\n### a\nGET {{host}}/{{same}}\n\n> {%\n  client.global.set("sub", response.body.id);\n%}\n\n### b\nGET {{host}}/{{sub}}?k={{key}}\n',
    });
    const result = await checkFiles({ paths: ['api.http'], cwd: root, cliVariables: {} });
    const precedence = result.findings.filter((finding) => finding.rule === 'precedence');
    expect(precedence.map((f) => `${f.file}:${f.line} ${f.severity}`)).toEqual([
      'api.http:1 warning',
      'api.http:8 warning',
    ]);
    expect(precedence[0].message).toContain("environment 'dev' of http-client.env.json");
    expect(precedence[0].message).toContain("(also environment 'prod')");
    expect(precedence[1].message).toContain("client.global.set('sub', …)");
    expect(precedence[0].message).not.toContain('set again');
    expect(result.findings.filter((finding) => finding.severity === 'error')).toEqual([]);
  });

  it('--var for the name silences it (it wins in every order)', async () => {
    const root = workspace({
      'http-client.env.json': JSON.stringify({ dev: { host: 'http://env' } }),
      'api.http': '@host = http://file\n\nGET {{host}}/\n',
    });
    const result = await checkFiles({ paths: ['api.http'], cwd: root, cliVariables: { host: 'http://cli' } });
    expect(result.findings.filter((finding) => finding.rule === 'precedence')).toEqual([]);
  });
});

describe('dial check: a name set twice in the file', () => {
  it('is reported once, at the first definition that differs, naming the other lines', async () => {
    const root = workspace({
      'http-client.env.json': JSON.stringify({ dev: { id: '<placeholder>' } }),
      'api.http':
        '@id = {{create.response.body.$.id}}\n\n### create\n# @name create\nPOST http://h/\n\n> {%\n  client.global.set("id", response.body.id);\n%}\n\n### get\nGET http://h/{{id}}\n',
    });
    const result = await checkFiles({ paths: ['api.http'], cwd: root, cliVariables: {}, environment: 'dev' });
    const precedence = result.findings.filter((finding) => finding.rule === 'precedence');
    expect(precedence.map((f) => f.line)).toEqual([1]);
    expect(precedence[0].message).toContain("would send '<placeholder>' instead (set again at line 8)");
  });
});

describe('dial check: a declaration below every use', () => {
  it('is not reported: dial reads it only for names defined nowhere else, so the environment wins in both orders', async () => {
    const root = workspace({
      'http-client.env.json': JSON.stringify({ dev: { host: 'http://env' } }),
      'api.http': 'GET {{host}}/\n\n###\n@host = http://file\n',
    });
    const result = await checkFiles({ paths: ['api.http'], cwd: root, cliVariables: {}, environment: 'dev' });
    expect(result.findings.filter((finding) => finding.rule === 'precedence')).toEqual([]);
    const session = createSession({ workspaceRoot: root, processEnv: {}, environment: 'dev' });
    const warnings = collect();
    const file = await session.loadFile(join(root, 'api.http'));
    expect((await session.prepare(file, file.requests[0])).request.url).toBe('http://env/');
    expect(warnings).toEqual([]);
  });
});

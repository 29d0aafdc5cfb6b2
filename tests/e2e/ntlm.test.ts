// kulala's `Authorization: NTLM user:password` (curl --ntlm -u) through the built CLI, against a
// local server that authenticates connections as an NTLM server does: a NEGOTIATE gets a 401 with
// a CHALLENGE, and the AUTHENTICATE on the same connection must carry an NTLMv2 response computed
// from the password it knows (MS-NLMP 3.3.2). The server is checked against curl's own NTLM first.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md4 } from '../../src/core/send/md4.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { readBody, startHttpServer, type TestServer } from '../helpers/servers.js';

const USERS: Record<string, string> = { 'CORP\\ada': 's3cret!pass', bob: 'hunter2' };
const hasCurlNtlm = (() => {
  try {
    return /\bNTLM\b/.test(execFileSync('curl', ['--version'], { encoding: 'utf8' }));
  } catch {
    return false;
  }
})();

interface Seen {
  step: 'none' | 'negotiate' | 'authenticate';
  socket: number;
  body: string;
  verdict?: string;
}
const seen: Seen[] = [];
const challenges = new WeakMap<Socket, { challenge: Buffer; targetInfo: Buffer }>();
const socketIds = new WeakMap<Socket, number>();
let nextSocket = 1;

function targetInfo(): Buffer {
  const pair = (id: number, value: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt16LE(id, 0);
    head.writeUInt16LE(value.length, 2);
    return Buffer.concat([head, value]);
  };
  return Buffer.concat([
    pair(2, Buffer.from('CORP', 'utf16le')),
    pair(1, Buffer.from('SERVER', 'utf16le')),
    pair(0, Buffer.alloc(0)),
  ]);
}

function challengeMessage(challenge: Buffer, info: Buffer): Buffer {
  const message = Buffer.alloc(48);
  message.write('NTLMSSP\0', 0, 'latin1');
  message.writeUInt32LE(2, 8);
  // unicode | request target | NTLM | extended session security | target info
  message.writeUInt32LE(0x00000001 | 0x00000004 | 0x00000200 | 0x00080000 | 0x00800000, 20);
  challenge.copy(message, 24);
  message.writeUInt16LE(info.length, 40);
  message.writeUInt16LE(info.length, 42);
  message.writeUInt32LE(48, 44);
  return Buffer.concat([message, info]);
}

/** Checks an AUTHENTICATE message: the NTLMv2 proof for the user's password and this connection's challenge. */
function verify(message: Buffer, state: { challenge: Buffer; targetInfo: Buffer }): string {
  if (message.subarray(0, 8).toString('latin1') !== 'NTLMSSP\0' || message.readUInt32LE(8) !== 3) return 'not type 3';
  const field = (at: number) =>
    message.subarray(message.readUInt32LE(at + 4), message.readUInt32LE(at + 4) + message.readUInt16LE(at));
  const unicode = (message.readUInt32LE(60) & 1) === 1;
  const text = (bytes: Buffer) => bytes.toString(unicode ? 'utf16le' : 'latin1');
  const domain = text(field(28));
  const user = text(field(36));
  const password = USERS[domain ? `${domain}\\${user}` : user];
  if (password === undefined) return `unknown user ${domain}\\${user}`;
  const nt = field(20);
  const key = createHmac('md5', md4(Buffer.from(password, 'utf16le')))
    .update(Buffer.from(user.toUpperCase() + domain, 'utf16le'))
    .digest();
  const blob = nt.subarray(16);
  const proof = createHmac('md5', key)
    .update(Buffer.concat([state.challenge, blob]))
    .digest();
  if (!proof.equals(nt.subarray(0, 16))) return 'bad proof';
  if (!blob.includes(state.targetInfo)) return 'target info not echoed';
  return `ok ${domain}\\${user}`;
}

let server: TestServer;
/** curl, asynchronously: the server it talks to runs in this process. */
const curl = (args: string[]) => promisify(execFile)('curl', args, { encoding: 'utf8' });

function answer(
  request: IncomingMessage,
  body: Buffer,
): { status: number; headers: Record<string, string>; text: string } {
  const socket = request.socket;
  const id = socketIds.get(socket) ?? nextSocket++;
  socketIds.set(socket, id);
  const header = /^NTLM (\S+)$/.exec(request.headers.authorization ?? '');
  if (!header) {
    seen.push({ step: 'none', socket: id, body: body.toString() });
    return { status: 401, headers: { 'www-authenticate': 'NTLM' }, text: 'who are you' };
  }
  const message = Buffer.from(header[1], 'base64');
  const type = message.length >= 12 ? message.readUInt32LE(8) : 0;
  if (type === 1) {
    seen.push({ step: 'negotiate', socket: id, body: body.toString() });
    const state = { challenge: randomBytes(8), targetInfo: targetInfo() };
    challenges.set(socket, state);
    return {
      status: 401,
      headers: { 'www-authenticate': `NTLM ${challengeMessage(state.challenge, state.targetInfo).toString('base64')}` },
      text: 'challenge',
    };
  }
  const state = challenges.get(socket);
  const verdict = state ? verify(message, state) : 'no challenge on this connection';
  seen.push({ step: 'authenticate', socket: id, body: body.toString(), verdict });
  return verdict.startsWith('ok')
    ? { status: 200, headers: { 'content-type': 'application/json' }, text: JSON.stringify({ who: verdict.slice(3) }) }
    : { status: 401, headers: {}, text: verdict };
}

beforeAll(async () => {
  server = await startHttpServer((request, response) => {
    void readBody(request).then((body) => {
      const { status, headers, text } = answer(request, body);
      response.writeHead(status, headers);
      response.end(text);
    });
  });
});
afterAll(() => server.close());

function workspace(text: string): string {
  const root = tempDir('dial-ntlm-');
  mkdirSync(join(root, '.git'));
  writeFileSync(join(root, 'api.http'), text.replaceAll('ORIGIN', server.url));
  return root;
}

describe('NTLM (kulala: Authorization: NTLM user:password)', () => {
  it.skipIf(!hasCurlNtlm)(
    'the server accepts curl --ntlm and refuses a wrong password (the check is real)',
    async () => {
      seen.length = 0;
      const good = await curl(['-s', '--ntlm', '-u', 'bob:hunter2', `${server.url}/curl`]);
      expect(JSON.parse(good.stdout)).toEqual({ who: '\\bob' });
      const bad = await curl([
        '-s',
        '-o',
        '/dev/null',
        '-w',
        '%{http_code}',
        '--ntlm',
        '-u',
        'bob:nope',
        `${server.url}/x`,
      ]);
      expect(bad.stdout).toBe('401');
      expect(seen.filter((s) => s.step === 'authenticate').map((s) => s.verdict)).toEqual(['ok \\bob', 'bad proof']);
    },
  );

  it('dial run answers the challenge on the same connection; the body goes with the AUTHENTICATE only', async () => {
    const root = workspace(
      [
        '@user = CORP\\ada',
        '@password = s3cret!pass',
        '',
        '### post',
        'POST ORIGIN/items',
        'Authorization: NTLM {{user}}:{{password}}',
        'Content-Type: application/json',
        '',
        '{"name": "x"}',
        '',
        '?? status == 200',
        '',
      ].join('\n'),
    );
    seen.length = 0;
    const result = await runCli(['run', 'api.http'], { cwd: root });
    expect(result.stdout + result.stderr).not.toContain('s3cret');
    expect(result.code).toBe(0);
    expect(seen.map((s) => [s.step, s.body])).toEqual([
      ['negotiate', ''],
      ['authenticate', '{"name": "x"}'],
    ]);
    expect(seen[1].socket).toBe(seen[0].socket);
    expect(seen[1].verdict).toBe('ok CORP\\ada');
  });

  it('dial send shows the authenticated answer; a wrong password is the 401 the server gives', async () => {
    const root = workspace(
      [
        '### good',
        'GET ORIGIN/who',
        'Authorization: NTLM bob:hunter2',
        '',
        '### bad',
        'GET ORIGIN/who',
        'Authorization: NTLM bob:wrong',
        '',
      ].join('\n'),
    );
    const good = await runCli(['send', 'api.http#good'], { cwd: root });
    expect(good.code).toBe(0);
    expect(JSON.parse(good.stdout)).toEqual({ who: '\\bob' });
    // dial run of a request written without variables (the executor's plain path) answers too.
    const run = await runCli(['run', 'api.http:2', '--reporter', 'json'], { cwd: root });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      files: Array<{ requests: Array<{ name: string; httpStatus: number }> }>;
    };
    expect(report.files[0].requests.map((r) => [r.name, r.httpStatus])).toEqual([['good', 200]]);
    const bad = await runCli(['send', 'api.http#bad', '--check-status'], { cwd: root });
    expect(bad.code).not.toBe(0);
    expect(bad.stdout + bad.stderr).toContain('bad proof');
  });

  it('export curl prints --ntlm -u as kulala runs curl; the bare and space forms and Negotiate stay refused at their line', async () => {
    const root = workspace('GET ORIGIN/who\nAuthorization: NTLM bob:hunter2\n');
    const exported = await runCli(['export', 'curl', 'api.http'], { cwd: root });
    expect(exported.stdout).toMatch(/--ntlm \\?\s*-u 'bob:hunter2'/);
    expect(exported.stdout).not.toContain('Authorization');
    for (const value of ['NTLM', 'NTLM bob hunter2', 'Negotiate']) {
      const refused = workspace(`GET ORIGIN/x\nAuthorization: ${value}\n`);
      const before = seen.length;
      const result = await runCli(['run', 'api.http'], { cwd: refused });
      expect(result.code).toBe(3);
      expect(result.stderr).toContain('api.http:2');
      expect(seen.length).toBe(before);
    }
  });
});

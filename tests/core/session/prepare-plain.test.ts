// session.preparePlain, the run's lean path: it answers only for a request with nothing to resolve
// or wait for, and then exactly what prepare() gives; for anything else it answers undefined.
import { cpSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSession } from '../../../src/core/session/index.js';
import { tempDir } from '../../helpers/cli.js';

function workspace(files: Record<string, string>): string {
  const root = tempDir('dial-plain-');
  for (const [path, text] of Object.entries(files)) writeFileSync(join(root, path), text);
  return root;
}

const plain = [
  'GET http://127.0.0.1:9/a',
  'GET http://127.0.0.1:9/b\nAccept: application/json\nX-Two: 2',
  'GET 127.0.0.1:9/no-scheme',
  'GET http://127.0.0.1:9/basic\nAuthorization: Basic user pass',
  'GET http://127.0.0.1:9/digest\nAuthorization: Digest user pass',
  'GET https://127.0.0.1:9/v2 HTTP/2',
  'GET http://127.0.0.1:9/v11 HTTP/1.1',
  'DELETE http://127.0.0.1:9/c',
];
const notPlain = [
  'GET http://{{host}}/var',
  'GET http://127.0.0.1:9/h\nX-A: {{host}}',
  'POST http://127.0.0.1:9/body\nContent-Type: text/plain\n\nhello',
  '# @timeout 5\nGET http://127.0.0.1:9/meta',
  '# @no-cookie-jar\nGET http://127.0.0.1:9/jar',
  '# @prompt name\nGET http://127.0.0.1:9/prompt',
  'GET /rooted\nHost: 127.0.0.1:9',
  'GET http://127.0.0.1:9/escaped\\{{x}}',
];

describe('session.preparePlain', () => {
  it('gives what prepare() gives for requests with nothing to resolve, and undefined for the others', async () => {
    const text = [...plain, ...notPlain].map((request, i) => `### r${i}\n${request}\n`).join('\n');
    const root = workspace({ 'api.http': text });
    const session = createSession({ workspaceRoot: root, cliVariables: { host: '127.0.0.1:9' }, processEnv: {} });
    const file = await session.loadFile(join(root, 'api.http'));
    // Before a first prepare in the folder, its default headers are not known: nothing is plain.
    expect(session.preparePlain(file, file.requests[0], true)).toBeUndefined();
    await session.prepare(file, file.requests[0]);
    for (const [index, node] of file.requests.entries()) {
      const lean = session.preparePlain(file, node, true);
      if (index >= plain.length) {
        expect(lean, `request ${index}`).toBeUndefined();
        continue;
      }
      expect(lean, `request ${index}`).toBeDefined();
      expect(lean).toEqual(await session.prepare(file, node, { promptAgain: true }));
    }
    // The Basic credentials are encoded on the lean path as on the other.
    expect(session.preparePlain(file, file.requests[3], true)?.request.headers).toEqual([
      ['Authorization', `Basic ${Buffer.from('user:pass').toString('base64')}`],
    ]);
    expect(session.preparePlain(file, file.requests[4], true)?.digest).toEqual({ username: 'user', password: 'pass' });
  });

  it('never answers in a folder whose environment has default headers, which prepare() adds', async () => {
    const root = workspace({
      'http-client.env.json': JSON.stringify({ $shared: { $default_headers: { 'X-Default': 'on' } } }),
      'api.http': '### a\nGET http://127.0.0.1:9/a\n',
    });
    const session = createSession({ workspaceRoot: root, processEnv: {} });
    const file = await session.loadFile(join(root, 'api.http'));
    const prepared = await session.prepare(file, file.requests[0]);
    expect(prepared.request.headers).toEqual([['X-Default', 'on']]);
    expect(session.preparePlain(file, file.requests[0], true)).toBeUndefined();
  });

  it('refuses an invalid header name as prepare() does', async () => {
    const root = workspace({
      'api.http': '### a\nGET http://127.0.0.1:9/a\n\n### b\nGET http://127.0.0.1:9/b\nX-A: 1\n',
    });
    const session = createSession({ workspaceRoot: root, processEnv: {} });
    const file = await session.loadFile(join(root, 'api.http'));
    await session.prepare(file, file.requests[0]);
    const node = file.requests[1];
    const bad = { ...node, headers: [{ ...node.headers[0], name: 'bad name' }] };
    expect(() => session.preparePlain(file, bad, true)).toThrow(/'bad name' is not a valid header name/);
  });

  it('stands aside for a REST Client file, whose prepare() joins repeated headers, drops Content-Length and encodes the URL', async () => {
    const root = workspace({
      'api.rest':
        '### a\nGET http://127.0.0.1:9/a\n\n### b\nGET http://127.0.0.1:9/b|c\nX-A: 1\nX-A: 2\nContent-Length: 99\n',
    });
    const session = createSession({ workspaceRoot: root, processEnv: {} });
    const file = await session.loadFile(join(root, 'api.rest'));
    await session.prepare(file, file.requests[0]);
    expect(session.preparePlain(file, file.requests[1], true)).toBeUndefined();
    const prepared = await session.prepare(file, file.requests[1]);
    expect(prepared.request.url).toBe('http://127.0.0.1:9/b%7Cc');
    expect(prepared.request.headers).toEqual([['X-A', '1,2']]);
  });

  it('stands aside once a script of the file set client.global.headers, which prepare() adds', async () => {
    const root = workspace({ 'api.http': '### a\nGET http://127.0.0.1:9/a\n\n### b\nGET http://127.0.0.1:9/b\n' });
    const session = createSession({ workspaceRoot: root, processEnv: {} });
    const file = await session.loadFile(join(root, 'api.http'));
    await session.prepare(file, file.requests[0]);
    expect(session.preparePlain(file, file.requests[1], true)).toBeDefined();
    session.globalHeadersOf(file).set('x-global', ['X-Global', 'on']);
    expect(session.preparePlain(file, file.requests[1], true)).toBeUndefined();
    expect((await session.prepare(file, file.requests[1])).request.headers).toEqual([['X-Global', 'on']]);
  });

  // The lean path must stand aside for every feature prepare() has; a feature added to prepare()
  // and not to preparePlain's guard shows up here as a difference, on the public files of
  // tests/compat (every dialect, env files, default headers, auth conventions).
  it('answers what prepare() gives on every request of the compatibility suite that it answers for', async () => {
    const cases = resolve(import.meta.dirname, '../../compat/cases');
    let compared = 0;
    let files = 0;
    for (const source of readdirSync(cases))
      for (const name of readdirSync(join(cases, source))) {
        const root = tempDir('dial-plain-compat-');
        cpSync(join(cases, source, name), root, { recursive: true });
        const httpFiles = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((path) =>
          /\.(?:http|rest)$/.test(path),
        );
        for (const path of httpFiles) {
          const session = createSession({ workspaceRoot: root, processEnv: {} });
          let file;
          try {
            file = await session.loadFile(join(root, path));
          } catch {
            continue; // a file dial refuses to read has no request to compare
          }
          files++;
          // A request prepared in the file's folder first: preparePlain needs its default headers known.
          const probePath = join(dirname(join(root, path)), '__plain_probe.http');
          writeFileSync(probePath, '### probe\nGET http://127.0.0.1:9/probe\n');
          const probe = await session.loadFile(probePath);
          await session.prepare(probe, probe.requests[0]).catch(() => undefined);
          for (const node of file.requests) {
            let lean;
            try {
              lean = session.preparePlain(file, node, true);
            } catch (error) {
              // What the lean path refuses, prepare() refuses too.
              await expect(
                session.prepare(file, node, { promptAgain: true }),
                `${source}/${name}/${path}:${node.requestLineSpan.line}`,
              ).rejects.toThrow((error as Error).message);
              continue;
            }
            if (lean === undefined) continue;
            compared++;
            expect(lean, `${source}/${name}/${path}:${node.requestLineSpan.line}`).toEqual(
              await session.prepare(file, node, { promptAgain: true }),
            );
          }
        }
      }
    expect(files).toBeGreaterThan(100);
    expect(compared).toBeGreaterThanOrEqual(30);
  });
});

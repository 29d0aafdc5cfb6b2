/**
 * REST Client's form bodies and URLs: in the REST Client dialect (a `.rest` file) the URL and an
 * `application/x-www-form-urlencoded` body are sent through REST Client's default encoding (npm
 * encodeurl 1.0.2, which its lock file pins); in other dialects it is sent as written, as JetBrains
 * sends it. Through the built bin/dial.js against a recording server.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecordingServer } from '../helpers/servers.js';
import { restClientFormEncoding } from '../../src/core/session/index.js';

const REQUEST = [
  'POST {{host}}/form',
  'Content-Type: application/x-www-form-urlencoded; charset=utf-8',
  '',
  'name=foo bar&city=Zürich&done=a%20b&odd=100%&q="x"^|<>#$&who={{who}}',
  '',
].join('\n');

describe('REST Client form bodies', () => {
  it('the encoding: what a URL cannot hold is %-encoded, `%XX`, `&`, `=`, `+`, `#`, `$` stay', () => {
    expect(restClientFormEncoding('name=foo bar&city=Zürich&done=a%20b&odd=100%&q="x"^|<>#$')).toBe(
      'name=foo%20bar&city=Z%C3%BCrich&done=a%20b&odd=100%25&q=%22x%22%5E%7C%3C%3E#$',
    );
    expect(restClientFormEncoding("p=a+b;c,d/e?f:g@h[i]~j!k*l(m)'n")).toBe("p=a+b;c,d/e?f:g@h[i]~j!k*l(m)'n");
    expect(restClientFormEncoding('e=😀&l=\ud800')).toBe('e=%F0%9F%98%80&l=%EF%BF%BD');
  });

  it('a .rest file sends its URL through the same encoding (REST Client encodes every URL); a .http file does not', async () => {
    const server = await startRecordingServer();
    try {
      const dir = tempDir('dial-rc-url-');
      mkdirSync(join(dir, '.git'));
      const text = 'GET {{host}}/a b/ü?x=1|2&y=10%&z=a^b&done=%20#frag\n';
      writeFileSync(join(dir, 'u.rest'), text);
      writeFileSync(join(dir, 'u.http'), text);
      for (const file of ['u.rest', 'u.http']) {
        const run = await runCli(['run', file, '--var', `host=${server.url}`], { cwd: dir });
        expect(run.code, run.stderr).toBe(0);
      }
      expect(server.requests.map((r) => r.url)).toEqual([
        '/a%20b/%C3%BC?x=1%7C2&y=10%25&z=a%5Eb&done=%20',
        '/a%20b/%C3%BC?x=1|2&y=10%&z=a^b&done=%20',
      ]);
    } finally {
      await server.close();
    }
  });

  it('a .rest file sends a header written twice as one, joined (Cookie with `;`), and drops a written Content-Length, as REST Client does; a .http file sends both', async () => {
    const server = await startRecordingServer();
    try {
      const dir = tempDir('dial-rc-headers-');
      mkdirSync(join(dir, '.git'));
      const text = 'POST {{host}}/h\nX-A: 1\nCookie: a=1\nx-a: 2\ncookie: b=2\nContent-Length: 3\n\nhello\n';
      writeFileSync(join(dir, 'h.rest'), text);
      writeFileSync(join(dir, 'h.http'), text);
      for (const file of ['h.rest', 'h.http']) {
        const run = await runCli(['run', file, '--var', `host=${server.url}`], { cwd: dir });
        expect(run.code, run.stderr).toBe(0);
      }
      const named = (raw: string[]) =>
        raw.flatMap((value, i) => (i % 2 === 0 && /^(x-a|cookie)$/i.test(value) ? [`${value}: ${raw[i + 1]}`] : []));
      expect(named(server.requests[0].rawHeaders)).toEqual(['X-A: 1,2', 'Cookie: a=1;b=2']);
      // The Content-Length written in the file is dropped, as REST Client drops it: the whole body goes.
      expect(server.requests[0].body.toString()).toBe('hello');
      expect(named(server.requests[1].rawHeaders).filter((h) => /^x-a:/i.test(h))).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it('a .rest file reads `< file` from the workspace root first, as REST Client; a .http file beside itself', async () => {
    const server = await startRecordingServer();
    try {
      const dir = tempDir('dial-rc-body-');
      mkdirSync(join(dir, '.git'));
      mkdirSync(join(dir, 'api'));
      writeFileSync(join(dir, 'body.json'), '{"at": "root"}');
      writeFileSync(join(dir, 'api', 'body.json'), '{"at": "beside"}');
      const text = 'POST {{host}}/b\nContent-Type: application/json\n\n< body.json\n';
      writeFileSync(join(dir, 'api', 'b.rest'), text);
      writeFileSync(join(dir, 'api', 'b.http'), text);
      for (const file of ['api/b.rest', 'api/b.http']) {
        const run = await runCli(['run', file, '--var', `host=${server.url}`], { cwd: dir });
        expect(run.code, run.stderr).toBe(0);
      }
      expect(server.requests.map((r) => r.body.toString())).toEqual(['{"at": "root"}', '{"at": "beside"}']);
    } finally {
      await server.close();
    }
  });

  it('a `< ./file` line among other body lines is the file in its place (JetBrains and REST Client); NDJSON in a .rest file ends with a line break', async () => {
    const server = await startRecordingServer();
    try {
      const dir = tempDir('dial-body-lines-');
      mkdirSync(join(dir, '.git'));
      writeFileSync(join(dir, 'part.json'), '"b": {{b}}');
      const text = [
        'POST {{host}}/mix',
        'Content-Type: application/json',
        '',
        '{"a": {{a}},',
        '< ./part.json',
        '<@ ./part.json',
        '}',
        '',
        '###',
        'POST {{host}}/nd',
        'Content-Type: application/x-ndjson',
        '',
        '{"a":1}',
        '{"b":2}',
        '',
      ].join('\n');
      writeFileSync(join(dir, 'b.http'), text);
      writeFileSync(join(dir, 'b.rest'), text);
      for (const file of ['b.http', 'b.rest']) {
        const run = await runCli(['run', file, '--var', `host=${server.url}`, '--var', 'a=1', '--var', 'b=2'], {
          cwd: dir,
        });
        expect(run.code, run.stderr).toBe(0);
      }
      expect(server.requests.map((r) => r.body.toString())).toEqual([
        '{"a": 1,\n"b": {{b}}\n"b": 2\n}',
        '{"a":1}\n{"b":2}',
        '{"a": 1,\n"b": {{b}}\n"b": 2\n}',
        '{"a":1}\n{"b":2}\n',
      ]);
    } finally {
      await server.close();
    }
  });

  it('{{$dotenv NAME}} reads the nearest .env.<environment> or .env above the .http file, as REST Client', async () => {
    const server = await startRecordingServer();
    try {
      const dir = tempDir('dial-rc-dotenv-');
      mkdirSync(join(dir, '.git'));
      mkdirSync(join(dir, 'api', 'v1'), { recursive: true });
      writeFileSync(join(dir, '.env'), 'USER=root-user\n');
      writeFileSync(join(dir, 'api', '.env'), 'USER=api-user\n');
      writeFileSync(join(dir, 'api', '.env.dev'), 'USER=api-dev-user\n');
      writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ dev: { x: '1' } }));
      writeFileSync(join(dir, 'api', 'v1', 'a.http'), 'GET {{host}}/u?u={{$dotenv USER}}\n');
      writeFileSync(join(dir, 'b.http'), 'GET {{host}}/u?u={{$dotenv USER}}\n');
      const runs = [['api/v1/a.http'], ['api/v1/a.http', '-e', 'dev'], ['b.http']];
      for (const args of runs) {
        const run = await runCli(['run', ...args, '--var', `host=${server.url}`], { cwd: dir });
        expect(run.code, run.stderr).toBe(0);
      }
      expect(server.requests.map((r) => r.url)).toEqual(['/u?u=api-user', '/u?u=api-dev-user', '/u?u=root-user']);
    } finally {
      await server.close();
    }
  });

  it('a .rest file sends it encoded (variables too); a .http file as written', async () => {
    const server = await startRecordingServer();
    try {
      const dir = tempDir('dial-rc-form-');
      mkdirSync(join(dir, '.git'));
      writeFileSync(join(dir, 'a.rest'), REQUEST);
      writeFileSync(join(dir, 'a.http'), REQUEST);
      for (const file of ['a.rest', 'a.http']) {
        const run = await runCli(['run', file, '--var', `host=${server.url}`, '--var', 'who=Zoë A'], { cwd: dir });
        expect(run.code, run.stderr).toBe(0);
      }
      expect(server.requests.map((r) => r.body.toString())).toEqual([
        'name=foo%20bar&city=Z%C3%BCrich&done=a%20b&odd=100%25&q=%22x%22%5E%7C%3C%3E#$&who=Zo%C3%AB%20A',
        'name=foo bar&city=Zürich&done=a%20b&odd=100%&q="x"^|<>#$&who=Zoë A',
      ]);
    } finally {
      await server.close();
    }
  });
});

/**
 * What the twenty-third held-out sweep (tests/compat/README.md; 40 public `.http`/`.rest` files
 * sampled without regard to their content) met, end to end through bin/dial.js against a recording
 * server on 127.0.0.1:0. The sweep needed no fix: these tests pin readings it found right, written
 * after the sampled files' shapes (not copied from them).
 */
import { describe, expect, it } from 'vitest';
import { gitWorkspace, runCli } from '../helpers/cli.js';
import { startJsonServer, withServer } from '../helpers/servers.js';

const workspace = (files: Record<string, string>): string => gitWorkspace('dial-sweep23-', files);

describe('twenty-third held-out sweep', () => {
  it('commented-out requests after a JSON body (`# ### title`, `# GET …`, `# header: …`) are not body text', () =>
    withServer(startJsonServer(), async (server) => {
      const { port } = new URL(server.url);
      const dir = workspace({
        'api.http': [
          '@host = 127.0.0.1',
          `@port = ${port}`,
          '@user = upload',
          '// translate',
          'POST http://{{host}}:{{port}}/{{user}}/translate HTTP/1.1',
          'content-type: application/json',
          '',
          '{',
          '    "user": "someone"',
          '}',
          '',
          '# ### list modules',
          '# GET http://{{host}}:{{port}}/{{user}}/modules HTTP/1.1',
          '# content-type: application/json',
          '',
          '# ### add one',
          '# POST http://{{host}}:{{port}}/{{user}}/articles/add HTTP/1.1',
          '# content-type: application/json',
          '',
          '# {',
          '#     "title": "x"',
          '# }',
          '',
        ].join('\n'),
      });
      const result = await runCli(['run', 'api.http'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /upload/translate']);
      expect(server.requests[0].body.toString()).toBe('{\n    "user": "someone"\n}');
      expect(server.requests[0].headers['content-type']).toBe('application/json');
      const check = await runCli(['check', 'api.http'], { cwd: dir });
      expect(check.code, check.stdout + check.stderr).toBe(0);
    }));

  it('an indented `?` line continues the URL (its blank percent-encoded); a URL with no scheme is sent over http', () =>
    withServer(startJsonServer(), async (server) => {
      const { host } = new URL(server.url);
      const dir = workspace({
        'request.http': [
          '### GET request to example server',
          `GET ${server.url}/get`,
          '    ?generated-in=Some IDE',
          '',
          '###',
          `GET ${host}/api/v1/person`,
        ].join('\n'),
      });
      const result = await runCli(['run', 'request.http'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
        'GET /get?generated-in=Some%20IDE',
        'GET /api/v1/person',
      ]);
      expect(server.requests.every((r) => r.body.length === 0)).toBe(true);
    }));

  it('`###`-separated one-line GETs: commented-out ones are skipped, Cyrillic and blanks in a query are percent-encoded', () =>
    withServer(startJsonServer(), async (server) => {
      const dir = workspace({
        'api.http': [
          '# curl -i http://example.invalid/ip',
          `@app = ${server.url}`,
          '',
          'GET {{app}}/addpair?currency=AAA&time=про&title=Pair1',
          '###',
          'GET {{app}}/onpair?id=P_AAA',
          '###',
          '#GET {{app}}/offpair?id=P_AAA',
          '###',
          'GET {{app}}/addpair?currency=BBB&time=2000&title=Pair corr',
          '###',
          '#GET {{app}}/onpair?id=P_BBB',
        ].join('\n'),
      });
      const result = await runCli(['run', 'api.http'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
        'GET /addpair?currency=AAA&time=%D0%BF%D1%80%D0%BE&title=Pair1',
        'GET /onpair?id=P_AAA',
        'GET /addpair?currency=BBB&time=2000&title=Pair%20corr',
      ]);
      expect(result.stderr).not.toContain('warning');
    }));
});

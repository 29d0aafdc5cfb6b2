// httpyac constructs the tenth held-out sweep met in httpyac's own examples
// (httpyac/httpyac.github.io examples/variables, examples/script, examples/request), checked
// through session.prepare against a recording server on 127.0.0.1:0.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../../src/core/session/index.js';
import { tempDir } from '../../helpers/cli.js';
import { startRecordingServer, type RecordedRequest, type TestServer } from '../../helpers/servers.js';

let server: TestServer & { requests: RecordedRequest[] };

beforeAll(async () => {
  server = await startRecordingServer((_request, response) => response.end('{}'));
});
afterAll(() => server.close());

async function prepared(text: string, index = 0) {
  const root = tempDir('dial-httpyac-sweep10-');
  writeFileSync(join(root, 'api.http'), `# @dialect httpyac\n${text.replaceAll('HOST', server.url)}`);
  const session = createSession({ workspaceRoot: root, processEnv: {} });
  const file = await session.loadFile(join(root, 'api.http'));
  return { file, request: (await session.prepare(file, file.requests[index])).request };
}

function bodyText(request: { body: { kind: string; text?: string } }): string | undefined {
  return request.body.kind === 'text' ? request.body.text : undefined;
}

describe('httpyac values as httpyac writes them', () => {
  it('a Date from an expression is its ISO text, not JSON with quotes (variablesNoValidJavascript.http)', async () => {
    const { request } = await prepared('GET HOST/a?d={{new Date(0)}}\n');
    expect(request.url).toBe(`${server.url}/a?d=1970-01-01T00:00:00.000Z`);
  });

  it('each {{ expression }} is evaluated where it stands: two Math.random() are two draws (scriptReplaceInBody.http)', async () => {
    const draws = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const { request } = await prepared('POST HOST/a\n\n{{Math.random()}} {{Math.random()}}\n');
      const [a, b] = bodyText(request)!.split(' ');
      draws.add(a).add(b);
    }
    expect(draws.size).toBe(6);
  });

  it('@foo="bar" is `bar"`: httpyac drops the opening quote only (requestBodyImportReplace.http)', async () => {
    const { request } = await prepared('@foo="bar"\nPOST HOST/a\n\n{"test": "{{foo}}"}\n');
    expect(bodyText(request)).toBe('{"test": "bar""}');
  });
});

describe('httpyac request lines', () => {
  it('a request line whose {{ }} holds blanks starts a new request too (variables/restClient.http)', async () => {
    const { file } = await prepared(
      'GET HOST/a?q={{$guid}}\n\nGET HOST/b?q={{$randomInt 100 200}}\n\nGET HOST/c?q={{$datetime "DD.MM.YYYY" 2 d}}\n',
    );
    expect(file.requests.map((r) => r.requestLineSpan.line)).toEqual([2, 4, 6]);
    expect(file.requests.every((r) => r.body === undefined)).toBe(true);
  });
});

describe('httpyac {{@request}} blocks', () => {
  it('setting User-Agent to undefined sends no User-Agent (script/delete_user_agent.http)', async () => {
    const { request } = await prepared(
      '{{@request\n  request.headers["User-Agent"] = undefined\n}}\n\nGET HOST/anything\n',
    );
    expect(request.headers.some(([name]) => name.toLowerCase() === 'user-agent')).toBe(false);
    expect(request.omitHeaders).toEqual(['User-Agent']);
  });
});

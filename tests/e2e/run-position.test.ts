/** The request under an editor's cursor: `dial run FILE:LINE`, `FILE#NAME`, `--name`, and `dial send … --name`. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecordingServer } from '../helpers/servers.js';

let server: Awaited<ReturnType<typeof startRecordingServer>>;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(async () => {
  await server.close();
});

function workspace(): string {
  const dir = tempDir('dial-position-');
  writeFileSync(
    join(dir, 'api.http'),
    [
      '### first', // 1
      'GET {{base}}/first', // 2
      '', // 3
      '### second', // 4
      '# @name two', // 5
      'POST {{base}}/second', // 6
      'Content-Type: text/plain', // 7
      '', // 8
      'hello', // 9
      '', // 10
      '### third', // 11
      'GET {{base}}/third', // 12
      '', // the final line break: 12 lines
    ].join('\n'),
  );
  return dir;
}

async function paths(args: string[], dir: string): Promise<{ code: number | null; paths: string[]; stderr: string }> {
  const before = server.requests.length;
  const result = await runCli([...args, '--var', `base=${server.url}`], { cwd: dir });
  return {
    code: result.code,
    paths: server.requests.slice(before).map((r) => `${r.method} ${r.url}`),
    stderr: result.stderr,
  };
}

describe('run and send at a position', () => {
  it('dial run FILE:LINE runs the request whose block holds the line', async () => {
    const dir = workspace();
    expect(await paths(['run', 'api.http:9'], dir)).toMatchObject({ code: 0, paths: ['POST /second'] });
    expect(await paths(['run', 'api.http:4'], dir)).toMatchObject({ code: 0, paths: ['POST /second'] });
    expect(await paths(['run', 'api.http:11'], dir)).toMatchObject({ code: 0, paths: ['GET /third'] });
    expect(await paths(['run', 'api.http:1'], dir)).toMatchObject({ code: 0, paths: ['GET /first'] });
  });

  it('dial run FILE#NAME and --name pick by @name or ### title', async () => {
    const dir = workspace();
    expect(await paths(['run', 'api.http#two'], dir)).toMatchObject({ code: 0, paths: ['POST /second'] });
    expect(await paths(['run', 'api.http', '--name', 'third'], dir)).toMatchObject({ code: 0, paths: ['GET /third'] });
  });

  it('a line past the end or an unknown name: exit 3 naming the file', async () => {
    const dir = workspace();
    const past = await paths(['run', 'api.http:99'], dir);
    expect(past.code).toBe(3);
    expect(past.paths).toEqual([]);
    expect(past.stderr).toContain('api.http has 12 lines; there is no line 99');
    const unknown = await paths(['run', 'api.http#nope'], dir);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain("no request named 'nope' in api.http");
  });

  it('dial send FILE:LINE and dial send FILE --name', async () => {
    const dir = workspace();
    const atLine = await paths(['send', 'api.http:12'], dir);
    expect(atLine).toMatchObject({ code: 0, paths: ['GET /third'] });
    const named = await paths(['send', 'api.http', '--name', 'two'], dir);
    expect(named).toMatchObject({ code: 0, paths: ['POST /second'] });
    expect(server.requests.at(-1)?.body.toString()).toBe('hello');
  });
});

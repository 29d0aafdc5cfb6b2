/**
 * httpyac: a named request's own `?? js` lines and post-response blocks read its name as the
 * response just received (httpyac sets the variable before they run). The tenth held-out sweep
 * (alekdavis/httpyac-extras) found dial reading it as a reference: a failed test, or the POST
 * sent a second time and a reference cycle. Built CLI against a recording server on 127.0.0.1:0.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecordingServer } from '../helpers/servers.js';

describe('httpyac: a request reads its own name after its response', () => {
  it('in `?? js` lines and in the block after the response, once sent', async () => {
    const server = await startRecordingServer((request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ json: JSON.parse(request.body.toString() || '{}') }));
    });
    try {
      const dir = tempDir('dial-httpyac-own-name-');
      mkdirSync(join(dir, '.git'));
      const text =
        `# @dialect httpyac\n@host = ${server.url}\n\n### a\n# @name first\nPOST /anything\n{"abc": "xyz"}\n\n` +
        `?? js first.json.abc == xyz\n\n### b\n# @name second\nPOST /anything\n{"xyz": true}\n\n{{\n` +
        `  const { ok } = require('assert');\n  test('own name', () => ok(second.json.xyz));\n}}\n`;
      writeFileSync(join(dir, 'a.http'), text);
      const result = await runCli(['run', 'a.http', '--reporter', 'dot'], { cwd: dir });
      expect(result.code, result.stderr + result.stdout).toBe(0);
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /anything', 'POST /anything']);
    } finally {
      await server.close();
    }
  });

  it('`<name>Response` in a block is that whole response (status code, headers, parsed body)', async () => {
    // alekdavis/httpyac-extras Tests/Demos/demo-2-Conditional-Basic.http (tenth held-out sweep).
    const server = await startRecordingServer((_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end('{"a": "x"}');
    });
    try {
      const dir = tempDir('dial-httpyac-name-response-');
      mkdirSync(join(dir, '.git'));
      const block = (cancel: string) => `{{\n  exports.$cancel = ${cancel};\n}}\n`;
      const text =
        `# @dialect httpyac\n@host = ${server.url}\n\n### 1\n# @name test1\nPOST /one\n\n` +
        `### 2\n# @ref test1\n${block('!(test1Response?.statusCode == 200 && test1Response.parsedBody.a == "x")')}POST /two\n\n` +
        `### 3\n# @ref test1\n${block('test1Response.headers["content-type"] == "application/json"')}POST /three\n`;
      writeFileSync(join(dir, 'a.http'), text);
      const result = await runCli(['run', 'a.http', '--reporter', 'dot'], { cwd: dir });
      expect(result.code, result.stderr + result.stdout).toBe(0);
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /one', 'POST /two']);
    } finally {
      await server.close();
    }
  });
});

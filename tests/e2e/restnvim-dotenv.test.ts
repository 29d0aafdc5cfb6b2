import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecordingServer } from '../helpers/servers.js';

// rest.nvim v3 (lua/rest-nvim/dotenv.lua, read not copied): `<name>.env` beside or above the
// `.http` file first, else `.env`; its parser cuts an unquoted value at a blank or `#`.
describe("rest.nvim's .env beside the .http file", () => {
  function workspace(url: string): string {
    const root = tempDir('dial-restnvim-env-');
    mkdirSync(join(root, '.git'));
    mkdirSync(join(root, 'api', 'users'), { recursive: true });
    writeFileSync(join(root, '.env'), 'TOKEN=root-token\nWHO=root\n');
    writeFileSync(join(root, 'api', '.env'), `URL=${url}/from-dotenv\nWHO=api # comment\n`);
    writeFileSync(join(root, 'api', 'users', 'list.env'), `URL=${url}/from-list-env trailing words\n`);
    const request = 'GET {{URL}}\nX-Who: {{WHO}}\n';
    writeFileSync(join(root, 'api', 'users', 'list.http'), `# @dialect rest.nvim\n${request}`);
    writeFileSync(join(root, 'api', 'users', 'other.http'), `# @dialect rest.nvim\n${request}`);
    writeFileSync(join(root, 'api', 'users', 'plain.http'), request);
    return root;
  }

  it('reads <name>.env first, else the nearest .env, in the rest.nvim dialect', async () => {
    const server = await startRecordingServer((_request, response) => response.end('{}'));
    try {
      const cwd = workspace(server.url);
      const list = await runCli(['send', 'api/users/list.http'], { cwd });
      expect(list.code, list.stderr).toBe(0);
      // The URL line's value is cut at its blank, as rest.nvim's parser does: said at the .env's line.
      expect(list.stderr).toContain(`${join('api', 'users', 'list.env')}:1`);
      expect(list.stderr).toContain('rest.nvim reads URL as');
      const other = await runCli(['send', 'api/users/other.http'], { cwd });
      expect(other.code, other.stderr).toBe(0);
      // list.env has no WHO: rest.nvim loads one file only, and dial falls back to the root's .env.
      expect(server.requests.map((r) => `${r.url} ${String(r.headers['x-who'])}`)).toEqual([
        '/from-list-env root',
        '/from-dotenv api',
      ]);
    } finally {
      await server.close();
    }
  });

  it('a file that names no dialect is refused at file:line, and the hint names the .env beside it', async () => {
    const server = await startRecordingServer((_request, response) => response.end('{}'));
    try {
      const cwd = workspace(server.url);
      const plain = await runCli(['send', 'api/users/plain.http'], { cwd });
      expect(plain.code).not.toBe(0);
      expect(plain.stderr).toMatch(/plain\.http:1/);
      expect(plain.stderr).toContain("variable 'URL' is not defined");
      expect(plain.stderr).toContain(join('api', '.env'));
      expect(plain.stderr).toContain('# @dialect rest.nvim');
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});

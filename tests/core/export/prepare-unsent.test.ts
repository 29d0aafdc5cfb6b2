/**
 * prepareUnsent is prepareFileRequest with `keepReferences`: same workspace root and request
 * selection, nothing run, references returned as kept.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { prepareUnsent } from '../../../src/core/export/from-http.js';
import { prepareFileRequest } from '../../../src/core/workspace/send-target.js';

let dir: string;

beforeAll(() => {
  process.env.DIAL_CONFIG_DIR = tempDir('dial-config-');
  dir = tempDir('dial-unsent-');
  writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ dev: { host: 'http://127.0.0.1:9' } }));
  writeFileSync(
    join(dir, 'api.http'),
    [
      '# @name login',
      'POST {{host}}/login',
      '',
      '###',
      '# @name me',
      'GET {{host}}/me?t={{login.response.body.$.token}}',
      'X-Token: {{login.response.body.$.token}}',
      '',
    ].join('\n'),
  );
});

describe('prepareFileRequest keepReferences', () => {
  it('keeps references as written and returns each once, running nothing', async () => {
    const prepared = await prepareFileRequest({
      target: { path: 'api.http', name: 'me' },
      cwd: dir,
      environment: 'dev',
      cliVariables: {},
      keepReferences: true,
    });
    expect(prepared.node.name).toBe('me');
    expect(prepared.environment).toBe('dev');
    expect(prepared.request.headers).toContainEqual(['X-Token', '{{login.response.body.$.token}}']);
    expect(prepared.kept).toEqual([{ request: 'login', text: '{{login.response.body.$.token}}' }]);
  });

  it('prepareUnsent gives the same request and the remembered environment', async () => {
    // -e dev above was remembered for the workspace: no -e now still resolves {{host}}.
    const unsent = await prepareUnsent({ target: { path: 'api.http', name: 'me' }, cwd: dir, cliVariables: {} });
    expect(unsent.environment).toBe('dev');
    expect(unsent.request.url.startsWith('http://127.0.0.1:9/me?t=')).toBe(true);
    expect(unsent.kept.map((kept) => kept.text)).toEqual(['{{login.response.body.$.token}}']);
  });
});

// `dial check` and an environment value that leads back to itself. The thirteenth held-out sweep met
// it in iprt/kotlin-examples: a committed http-client.private.env.json whose only value is
// `"root_uri": "{{root_uri}}"` and no public env file. `dial run -e local_test` refuses it
// (E_VAR_CYCLE at the request's line); `dial check` passed it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFiles } from '../../../src/core/check/index.js';
import { tempDir } from '../../helpers/cli.js';

async function findings(http: string, env: Record<string, Record<string, string>>, envName?: string) {
  const root = tempDir('dial-check-cycle-');
  mkdirSync(join(root, '.git'));
  writeFileSync(join(root, 'api.http'), http);
  writeFileSync(join(root, 'http-client.private.env.json'), JSON.stringify(env));
  const result = await checkFiles({
    paths: [join(root, 'api.http')],
    cwd: root,
    cliVariables: {},
    environment: envName,
  });
  return result.findings;
}

describe('dial check: a variable cycle through env values', () => {
  it('is an error at the placeholder, naming the chain and the environment', async () => {
    const found = await findings('### sum\nGET {{root_uri}}/coroutines/sum\n', {
      local_test: { root_uri: '{{root_uri}}' },
    });
    const cycles = found.filter((f) => f.rule === 'variable-cycle');
    expect(cycles).toHaveLength(1);
    expect(cycles[0]).toMatchObject({ line: 2, col: 5, severity: 'error' });
    expect(cycles[0].message).toBe("variable cycle: root_uri -> root_uri in environment 'local_test'");
  });

  it('follows a longer chain', async () => {
    const found = await findings('GET {{base}}/x\n', { dev: { base: '{{host}}/api', host: 'http://{{base}}' } });
    expect(found.filter((f) => f.rule === 'variable-cycle').map((f) => f.message)).toEqual([
      "variable cycle: base -> host -> base in environment 'dev'",
    ]);
  });

  it('leaves a file variable naming itself alone (it stands for the environment value)', async () => {
    const found = await findings('@host = {{host}}\nGET {{host}}/x\n', { dev: { host: 'http://example.com' } });
    expect(found.filter((f) => f.rule === 'variable-cycle')).toEqual([]);
  });

  it('says nothing of a chain that ends', async () => {
    const found = await findings('GET {{base}}/x\n', { dev: { base: '{{host}}/api', host: 'http://example.com' } });
    expect(found).toEqual([]);
  });
});

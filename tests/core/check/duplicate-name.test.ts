// `dial check` and a `# @name` used twice. httpyac accepts it (the twelfth held-out sweep met it in
// two httpyac repositories: a create request named `filmCreated` twice, an `huntplayer` three
// times): `{{name}}` is the latest response, `# @ref name` runs the first. Elsewhere it stays an error.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFiles } from '../../../src/core/check/index.js';
import { tempDir } from '../../helpers/cli.js';

const TEXT =
  '# @name made\nPOST https://example.com/a\n\n###\n# @ref made\nGET https://example.com/b/{{made.id}}\n\n###\n# @name made\nPOST https://example.com/c\n';

async function duplicateFindings(text: string) {
  const root = tempDir('dial-check-dup-');
  mkdirSync(join(root, '.git'));
  writeFileSync(join(root, 'api.http'), text);
  const { findings } = await checkFiles({ paths: [join(root, 'api.http')], cwd: root, cliVariables: {} });
  return findings.filter((f) => f.rule === 'duplicate-name');
}

describe('dial check: a # @name used twice', () => {
  it('is a warning in an httpyac file, naming what httpyac does', async () => {
    const found = await duplicateFindings(`# @dialect httpyac\n${TEXT}`);
    expect(found).toHaveLength(1);
    expect(found[0].severity).toBe('warning');
    expect(found[0].line).toBe(9);
    expect(found[0].message).toContain('httpyac allows it');
  });
  it("stays an error in files read as another tool's", async () => {
    for (const text of [`# @dialect jetbrains\n${TEXT}`, `# @dialect rest-client\n${TEXT}`]) {
      const found = await duplicateFindings(text);
      expect(found).toHaveLength(1);
      expect(found[0].severity).toBe('error');
    }
  });
});

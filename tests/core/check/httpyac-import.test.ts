// `dial check` and httpyac's `# @import`: the variables of an imported file are defined in the file
// that imports it (httpyac/httpyac.github.io examples/variables/variablesImport.http, met by the
// tenth held-out sweep, where check reported `fooExtended` as undefined while `dial run` sent it).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFiles } from '../../../src/core/check/index.js';
import { tempDir } from '../../helpers/cli.js';

describe('dial check: httpyac # @import', () => {
  it('finds the imported files’ variables (transitively), and still reports one defined nowhere', async () => {
    const root = tempDir('dial-check-import-');
    mkdirSync(join(root, '.git'));
    writeFileSync(join(root, 'init.http'), '# @import ./base.http\n@fooExtended={{foo}}_Extended\n');
    writeFileSync(join(root, 'base.http'), '@foo=bar\n');
    writeFileSync(
      join(root, 'use.http'),
      '# @dialect httpyac\n# @import ./init.http\nGET https://example.com/?q={{fooExtended}}&r={{foo}}&s={{nowhere}}\n',
    );
    const { findings } = await checkFiles({ paths: [join(root, 'use.http')], cwd: root, cliVariables: {} });
    const undefinedOnes = findings.filter((f) => f.rule === 'undefined-variable').map((f) => f.message);
    expect(undefinedOnes).toEqual(["undefined variable 'nowhere'"]);
  });

  it('reads a variable’s own {{ }} as JavaScript: a function an imported block exports is defined (sweep 15)', async () => {
    const root = tempDir('dial-check-import-fn-');
    mkdirSync(join(root, '.git'));
    mkdirSync(join(root, 'common'));
    writeFileSync(
      join(root, 'common', 'setup.http'),
      '@base = https://example.com\n{{\n  exports.refreshCookie = (resp) => resp.headers["set-cookie"];\n}}\n',
    );
    writeFileSync(
      join(root, 'use.http'),
      '# @dialect httpyac\n# @import ./common/setup.http\n### login\nPOST {{base}}/login\n\n@session = {{refreshCookie(response)}}\n@other = {{missingHelper(response)}}\n\n### next\nGET {{base}}/next\nCookie: {{session}}\nX-Other: {{other}}\n',
    );
    const { findings } = await checkFiles({ paths: [join(root, 'use.http')], cwd: root, cliVariables: {} });
    const undefinedOnes = findings.filter((f) => f.rule === 'undefined-variable').map((f) => f.message);
    expect(undefinedOnes).toEqual(["undefined variable 'missingHelper' (used by 'other')"]);
  });
});

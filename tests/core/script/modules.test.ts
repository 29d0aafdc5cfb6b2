import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SANDBOX_MODULES, importStatement, nodeOnlyModules } from '../../../src/core/script/modules.js';
import { PRELUDE_SOURCE } from '../../../src/core/script/prelude.js';
import { ScriptRunner } from '../../../src/core/script/sandbox.js';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';
import { DialError } from '../../../src/core/errors.js';
import { tempDir } from '../../helpers/cli.js';

describe('script modules', () => {
  it('lists the modules only Node can give, not the ones the sandbox provides', () => {
    expect(
      nodeOnlyModules(
        "const a = require('assert'); const c = require(\"crypto\"); const f = require('fs'); require(`./lib.js`); require('fs');",
      ).names,
    ).toEqual(['fs', './lib.js']);
    expect(nodeOnlyModules("const { expect } = require('chai');").names).toEqual([]);
    expect(importStatement("import fs from 'fs';\nclient.log(1)")).toBe('fs');
    expect(importStatement("client.log('import x from y')")).toBeUndefined();
  });

  it('SANDBOX_MODULES is exactly what the sandbox answers require with (prelude PURE)', () => {
    const pure = /var PURE = \{([^}]*)\}/.exec(PRELUDE_SOURCE)?.[1] ?? '';
    const keys = [...pure.matchAll(/(?:'([^']+)'|(\w+))\s*:/g)].map((match) => match[1] ?? match[2]);
    expect(new Set(keys)).toEqual(SANDBOX_MODULES);
  });

  it('checkModules refuses a script file that needs Node, at its line, unless Node access is given', async () => {
    const dir = tempDir('dial-modules-');
    writeFileSync(join(dir, 'handler.js'), "client.log('x');\nconst { execSync } = require('child_process');\n");
    const path = join(dir, 'api.http');
    const file = parseHttpFile('GET http://127.0.0.1:1/x\n\n> ./handler.js\n', path);
    const error = (await new ScriptRunner(5000, { allowNode: false })
      .checkModules(file)
      .catch((e: unknown) => e)) as DialError;
    expect(error).toBeInstanceOf(DialError);
    expect(error.code).toBe('E_SCRIPT');
    expect(error.message).toContain("loads 'child_process', which needs Node access");
    expect(error.location).toMatchObject({ file: join(dir, 'handler.js'), line: 2 });
    await expect(new ScriptRunner(5000, { allowNode: true }).checkModules(file)).resolves.toBeUndefined();
  });

  it('checkModules refuses an ES import statement even with Node access', async () => {
    const file = parseHttpFile("GET http://127.0.0.1:1/x\n\n> {%\nimport fs from 'fs';\n%}\n", '/w/api.http');
    await expect(new ScriptRunner(5000, { allowNode: true }).checkModules(file)).rejects.toThrow(/ES import statement/);
  });

  it('checkModules finds what needs Node on any request of a file, and passes a file without scripts', async () => {
    const refused = async (text: string, dialect?: 'httpyac') => {
      const file = parseHttpFile(text, '/w/api.http', dialect ? { dialect } : undefined);
      return (await new ScriptRunner(5000, { allowNode: false }).checkModules(file).catch((e: unknown) => e)) as
        DialError | undefined;
    };
    const plain = Array.from({ length: 50 }, (_, i) => `### r${i}\nGET http://127.0.0.1:1/${i}\n\n?? status == 200\n`);
    expect(await refused(plain.join('\n'))).toBeUndefined();
    expect(await refused(plain.join('\n'), 'httpyac')).toBeUndefined();
    // A handler on the last request only.
    const handler = await refused(
      `${plain.join('\n')}\n### last\nGET http://127.0.0.1:1/z\n\n> {%\nrequire('fs');\n%}\n`,
    );
    expect(handler?.code).toBe('E_SCRIPT');
    expect(handler?.message).toContain("loads 'fs'");
    // httpyac: a `{{ }}` block of the last request, and a placeholder that requires a module.
    const block = await refused(
      `${plain.join('\n')}\n### last\n{{\nrequire('fs');\n}}\nGET http://127.0.0.1:1/z\n`,
      'httpyac',
    );
    expect(block?.code).toBe('E_SCRIPT');
    const placeholder = await refused(
      `${plain.join('\n')}\n### last\nGET http://127.0.0.1:1/{{require('os').hostname()}}\n`,
      'httpyac',
    );
    expect(placeholder?.code).toBe('E_SCRIPT');
    expect(placeholder?.message).toContain("loads 'os'");
  });
});

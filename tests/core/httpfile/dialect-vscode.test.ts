/**
 * A VS Code REST Client workspace: a `.vscode/settings.json` with `rest-client.*` keys, from the
 * file's folder up to the repository root, marks its files as REST Client's, below a `# @dialect`
 * line, --dialect, httpyac's and kulala's workspace marks and constructs only another tool has.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseDialect, parseHttpFile } from '../../../src/core/httpfile/index.js';
import { jsonErrorLine, stripJsonComments } from '../../../src/core/jsonc.js';
import { restClientFormBody } from '../../../src/core/session/index.js';

const FORM =
  'POST http://x/token\nContent-Type: application/x-www-form-urlencoded\n\nusername=a b&scope=openid profile\n';

/** A repository (`.git`) with `settings` as `.vscode/settings.json` in `settingsAt` and the file in `fileAt`. */
function workspace(settings: string | undefined, options: { settingsAt?: string; fileAt?: string } = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'dial-vscode-ws-'));
  mkdirSync(join(root, '.git'));
  if (settings !== undefined) {
    const dir = join(root, options.settingsAt ?? '', '.vscode');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'settings.json'), settings);
  }
  const folder = join(root, options.fileAt ?? '');
  mkdirSync(folder, { recursive: true });
  return join(folder, 'api.http');
}

const ENVIRONMENTS = `{
  // REST Client's environments
  "rest-client.environmentVariables": {
    "$shared": { "realm": "demo", },
    "local": { "host": "http://localhost:8080" },
  },
  /* trailing commas and comments, as VS Code allows */
  "editor.formatOnSave": true,
}
`;

describe('REST Client workspace detection', () => {
  it('rest-client.environmentVariables (JSONC) in the repository root marks a file in a subfolder', () => {
    const file = workspace(ENVIRONMENTS, { fileAt: 'keycloak/flows' });
    expect(chooseDialect(FORM, file)).toEqual({ dialect: 'rest-client', source: 'workspace' });
    const parsed = parseHttpFile(FORM, file);
    expect(parsed.dialect).toBe('rest-client');
    // Read as REST Client's: no "REST Client percent-encodes" warning, the body is encoded when sent.
    expect(parsed.warnings ?? []).toEqual([]);
  });

  it('any rest-client.* key marks it; settings without one do not, and the search goes on upwards', () => {
    expect(chooseDialect(FORM, workspace('{"rest-client.defaultHeaders": {"X-A": "1"}}')).dialect).toBe('rest-client');
    expect(chooseDialect(FORM, workspace('{"rest-client.previewOption": "exchange"}')).dialect).toBe('rest-client');
    const plain = workspace('{"editor.tabSize": 2, "restclient": 1, "x": "rest-client.environmentVariables"}');
    expect(chooseDialect(FORM, plain)).toEqual({ dialect: 'jetbrains', source: 'default' });
    // A settings file of the subfolder without REST Client keys; the root's has them.
    const root = mkdtempSync(join(tmpdir(), 'dial-vscode-up-'));
    mkdirSync(join(root, '.git'));
    mkdirSync(join(root, '.vscode'));
    writeFileSync(join(root, '.vscode', 'settings.json'), ENVIRONMENTS);
    mkdirSync(join(root, 'sub', '.vscode'), { recursive: true });
    writeFileSync(join(root, 'sub', '.vscode', 'settings.json'), '{"editor.tabSize": 2}');
    expect(chooseDialect(FORM, join(root, 'sub', 'a.http')).dialect).toBe('rest-client');
  });

  it('stops at the repository root, as the other workspace marks do', () => {
    const outer = mkdtempSync(join(tmpdir(), 'dial-vscode-outer-'));
    mkdirSync(join(outer, '.vscode'));
    writeFileSync(join(outer, '.vscode', 'settings.json'), ENVIRONMENTS);
    mkdirSync(join(outer, 'repo', '.git'), { recursive: true });
    expect(chooseDialect(FORM, join(outer, 'repo', 'a.http')).dialect).toBe('jetbrains');
  });

  it('a `# @dialect` line and --dialect win over it', () => {
    const file = workspace(ENVIRONMENTS);
    expect(chooseDialect(`# @dialect jetbrains\n${FORM}`, file)).toEqual({ dialect: 'jetbrains', source: 'file' });
    expect(chooseDialect(FORM, file, 'kulala')).toEqual({ dialect: 'kulala', source: 'flag' });
    const declared = parseHttpFile(`# @dialect jetbrains\n${FORM}`, file);
    expect(declared.dialect).toBe('jetbrains');
  });

  it("httpyac's and kulala's workspace marks win, wherever they stand up to the root", () => {
    const root = workspace(ENVIRONMENTS, { fileAt: 'api' });
    writeFileSync(join(root, '..', '..', '.httpyac.json'), '{}');
    expect(chooseDialect(FORM, root)).toEqual({ dialect: 'httpyac', source: 'workspace' });
    const kulala = workspace(ENVIRONMENTS);
    writeFileSync(
      join(kulala, '..', 'http-client.env.json'),
      '{"$schema": "https://raw.githubusercontent.com/mistweaverco/kulala.nvim/main/schemas/http-client.env.schema.json"}',
    );
    expect(chooseDialect(FORM, kulala)).toEqual({ dialect: 'kulala', source: 'workspace' });
  });

  it('constructs only another tool has keep their reading', () => {
    const file = workspace(ENVIRONMENTS);
    expect(chooseDialect(`# @loop for 2\n${FORM}`, file)).toEqual({ dialect: 'httpyac', source: 'constructs' });
    expect(chooseDialect(`# @env-json-key T json.t\n${FORM}`, file)).toEqual({
      dialect: 'kulala',
      source: 'constructs',
    });
    expect(chooseDialect(`GET http://x\n# @lang=lua\n> {%\nlocal a = 1\n%}\n`, file).dialect).toBe('rest.nvim');
  });

  it('rest-client.formParamEncodingStrategy other than "automatic" is carried to the file, also under `# @dialect rest-client`', () => {
    const never = workspace('{"rest-client.formParamEncodingStrategy": "Never"}');
    expect(chooseDialect(FORM, never)).toEqual({ dialect: 'rest-client', source: 'workspace', formEncoding: 'never' });
    expect(parseHttpFile(FORM, never).formEncoding).toBe('never');
    const always = workspace('{"rest-client.formParamEncodingStrategy": "always"}');
    expect(chooseDialect(`# @dialect rest-client\n${FORM}`, always)).toEqual({
      dialect: 'rest-client',
      source: 'file',
      formEncoding: 'always',
    });
    const automatic = workspace('{"rest-client.formParamEncodingStrategy": "automatic"}');
    expect(chooseDialect(FORM, automatic)).toEqual({ dialect: 'rest-client', source: 'workspace' });
  });

  it('a settings.json that does not parse marks nothing and is reported at its line', () => {
    const file = workspace('{\n  "rest-client.environmentVariables": {\n    "local": {"a": 1}\n  "x": 2\n}\n');
    const choice = chooseDialect(FORM, file);
    expect(choice.dialect).toBe('jetbrains');
    expect(choice.source).toBe('default');
    expect(choice.settingsProblem?.path).toBe(join(file, '..', '.vscode', 'settings.json'));
    expect(choice.settingsProblem?.line).toBe(4);
    const parsed = parseHttpFile(FORM, file);
    expect(parsed.dialect).toBe('jetbrains');
    const warning = parsed.warnings?.find((w) => w.file.endsWith('settings.json'));
    expect(warning?.message).toContain('does not parse');
    expect(warning?.line).toBe(4);
    // The neutral reading's own warning is still there.
    expect(parsed.warnings?.some((w) => w.message.includes('REST Client percent-encodes'))).toBe(true);
    // Not an object, or empty: nothing, no warning.
    expect(chooseDialect(FORM, workspace('[]'))).toEqual({ dialect: 'jetbrains', source: 'default' });
  });
});

describe('JSONC as VS Code reads settings.json', () => {
  it('blanks comments and trailing commas, leaves strings alone, keeps positions', () => {
    const text = '\uFEFF{"a": "x, } // y /* z */", // c\n "b": [1, 2,], /* d \n*/ "c": {"d": 1,},}';
    const plain = stripJsonComments(text);
    expect(plain).toHaveLength(text.length);
    expect(JSON.parse(plain)).toEqual({ a: 'x, } // y /* z */', b: [1, 2], c: { d: 1 } });
    expect(plain.split('\n')).toHaveLength(3);
  });
  it('the line of a parse error', () => {
    const text = '{\n "a": 1\n "b": 2\n}';
    let error: unknown;
    try {
      JSON.parse(text);
    } catch (caught) {
      error = caught;
    }
    expect(jsonErrorLine(text, error)).toBe(3);
    expect(jsonErrorLine(text, new Error('no position'))).toBeUndefined();
  });
});

describe("REST Client's formParamEncodingStrategy", () => {
  it('automatic: encodeurl; never: as written; always: encodeURIComponent on each name and value', () => {
    const body = 'username=a b&redirect=http://x/?a=1&pct=%20&flag&eq=a=b';
    expect(restClientFormBody(body)).toBe('username=a%20b&redirect=http://x/?a=1&pct=%20&flag&eq=a=b');
    expect(restClientFormBody(body, 'never')).toBe(body);
    expect(restClientFormBody(body, 'always')).toBe(
      'username=a%20b&redirect=http%3A%2F%2Fx%2F%3Fa%3D1&pct=%2520&flag=&eq=a%3Db',
    );
    expect(restClientFormBody('e=😀&l=\ud800', 'always')).toBe('e=%F0%9F%98%80&l=%EF%BF%BD');
  });
});

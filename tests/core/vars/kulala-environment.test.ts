// kulala hands its scripts the environment with the file's `@name = value` variables under it, so
// `request.environment.get("ENV_USER")` reads a file variable there; JetBrains gives only the
// environment (null for a file variable), and says so with a warning when that reading was chosen.
import { afterEach, describe, expect, it } from 'vitest';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';
import { dialectFromConstructs } from '../../../src/core/httpfile/dialect.js';
import { onParseWarning } from '../../../src/core/httpfile/warnings.js';
import type { ParseWarning } from '../../../src/core/httpfile/types.js';
import { scriptEnvironment } from '../../../src/core/vars/kulala-environment.js';

const TEXT =
  '@ENV_USER = some_username\n@base = {{host}}/v1\n\nGET http://x/a\n\n> {%\n  client.log(request.environment.get("ENV_USER"), request.environment.get("base"));\n%}\n';

afterEach(() => onParseWarning(undefined));

describe('request.environment.get and file variables', () => {
  it('a script reading its own file variable from the environment means kulala', () => {
    expect(dialectFromConstructs(TEXT)).toBe('kulala');
    expect(parseHttpFile(TEXT, '/w/a.http').dialect).toBe('kulala');
    // A name no `@name =` line declares says nothing about the tool.
    expect(dialectFromConstructs('GET http://x\n\n> {% request.environment.get("token") %}\n')).toBeUndefined();
  });

  it('kulala: the environment first, then the file variable (placeholders filled in when a script names it)', async () => {
    const file = parseHttpFile(TEXT, '/w/a.http');
    const environment = new Map([['host', 'http://env']]);
    const lookup = await scriptEnvironment(
      file,
      file.requests[0],
      (name) => environment.get(name),
      (template) => template.replace('{{host}}', 'http://env'),
    );
    expect(lookup('ENV_USER')).toBe('some_username');
    expect(lookup('base')).toBe('http://env/v1');
    expect(lookup('host')).toBe('http://env');
    expect(lookup('nothing')).toBeUndefined();
    // The environment wins over a file variable of the same name (kulala's tbl_extend "keep").
    environment.set('ENV_USER', 'from-env');
    expect(lookup('ENV_USER')).toBe('from-env');
  });

  it("does not fill in a file variable that reads another request's response (that would send it): null, with a warning", async () => {
    const file = parseHttpFile(
      '# @dialect kulala\n@token = {{login.response.body.token}}\n\nGET http://x/a\n\n> {%\n  client.log(request.environment.get("token"));\n%}\n',
      '/w/a.http',
    );
    const warnings: ParseWarning[] = [];
    onParseWarning((warning) => warnings.push(warning));
    let resolved = 0;
    const lookup = await scriptEnvironment(
      file,
      file.requests[0],
      () => undefined,
      (template) => {
        resolved++;
        return template;
      },
    );
    expect(lookup('token')).toBeUndefined();
    expect(resolved).toBe(0);
    expect(warnings[0]?.message).toContain("request.environment.get('token') is null");
  });

  it('JetBrains reading: null for a file variable, with a warning at the script', async () => {
    const file = parseHttpFile(`# @dialect jetbrains\n${TEXT}`, '/w/a.http');
    const warnings: ParseWarning[] = [];
    onParseWarning((warning) => warnings.push(warning));
    const lookup = await scriptEnvironment(
      file,
      file.requests[0],
      () => undefined,
      (template) => template,
    );
    expect(lookup('ENV_USER')).toBeUndefined();
    expect(warnings).toEqual([
      expect.objectContaining({
        line: 7,
        message: expect.stringContaining("request.environment.get('ENV_USER') is null in the jetbrains reading"),
      }),
    ]);
  });
});

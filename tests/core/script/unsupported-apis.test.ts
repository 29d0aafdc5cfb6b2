// JetBrains script APIs that change what is sent (one request per list item, global headers):
// dial does not implement them, so a file using them is refused before anything is sent, at the
// script's line (it used to send `/api/resource/[101,102,103]` once).
import { describe, expect, it } from 'vitest';
import { ScriptRunner } from '../../../src/core/script/sandbox.js';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';
import { DialError } from '../../../src/core/errors.js';

async function refusal(text: string): Promise<DialError> {
  const file = parseHttpFile(text, '/w/api.http');
  return (await new ScriptRunner(5000, { allowNode: false }).checkModules(file).catch((e: unknown) => e)) as DialError;
}

describe('unsupported JetBrains script APIs', () => {
  it('a list given to request.variables.set is refused at its line', async () => {
    const error = await refusal(
      '###\n< {%\n    request.variables.set("ids", [101, 102, 103]);\n%}\nGET http://x/api/resource/{{ids}}\n',
    );
    expect(error).toBeInstanceOf(DialError);
    expect(error.code).toBe('E_SCRIPT');
    expect(error.message).toContain('once per item of a list variable');
    expect(error.location).toMatchObject({ file: '/w/api.http', line: 3 });
  });

  it('client.global.headers and request.iteration() are refused', async () => {
    const headers = await refusal('< {%\n  client.global.headers.set("X-Session-ID", "s");\n%}\nGET http://x/a\n');
    expect(headers.message).toContain('client.global.headers');
    const iteration = await refusal('GET http://x/a\n\n> {%\n  client.log(request.iteration());\n%}\n');
    expect(iteration.message).toContain('once per item');
  });

  it('ordinary scripts pass', async () => {
    const file = parseHttpFile(
      '< {%\n  request.variables.set("a", "1");\n%}\nGET http://x/{{a}}\n\n> {% client.global.set("t", response.body.token); %}\n',
      '/w/api.http',
    );
    await expect(new ScriptRunner(5000, { allowNode: false }).checkModules(file)).resolves.toBeUndefined();
  });

  it('a list computed at run time is refused when the pre-request script runs', async () => {
    const file = parseHttpFile(
      '< {%\n  var ids = [1, 2];\n  request.variables.set("ids", ids);\n%}\nGET http://x/{{ids}}\n',
      '/w/api.http',
    );
    const runner = new ScriptRunner(5000, { allowNode: false });
    await expect(runner.checkModules(file)).resolves.toBeUndefined();
    const requestVariables = new Map<string, string>();
    const outcome = await runner
      .run(file.requests[0].preScripts[0], file, { globals: new Map(), requestVariables, environment: () => undefined })
      .catch((e: unknown) => e);
    expect(outcome).toBeInstanceOf(DialError);
    expect((outcome as DialError).message).toContain('request.variables.set with a list');
    expect(requestVariables.has('ids')).toBe(false);
  });
});

// JetBrains script APIs that change what is sent and that dial does not implement
// (`request.templateValue()`) are refused before anything is sent, at the script's line
// (`client.global.headers` is done: tests/e2e/jetbrains-scripts.test.ts). A list given to request.variables.set is sent once per item (list-iteration.test.ts);
// how the request reads a list written in the script is checked up front too.
import { describe, expect, it } from 'vitest';
import { ScriptRunner } from '../../../src/core/script/sandbox.js';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';
import { DialError } from '../../../src/core/errors.js';

async function refusal(text: string): Promise<DialError> {
  const file = parseHttpFile(text, '/w/api.http');
  return (await new ScriptRunner(5000, { allowNode: false }).checkModules(file).catch((e: unknown) => e)) as DialError;
}

describe('JetBrains script APIs checked before sending', () => {
  it('request.templateValue() is refused at its line; client.global.headers passes', async () => {
    const template = await refusal('GET http://x/a\n\n> {%\n  client.log(request.templateValue(0));\n%}\n');
    expect(template).toBeInstanceOf(DialError);
    expect(template.code).toBe('E_SCRIPT');
    expect(template.message).toContain('request.templateValue()');
    expect(template.location).toMatchObject({ file: '/w/api.http', line: 4 });
    const headers = parseHttpFile(
      '< {%\n  client.global.headers.set("X-Session-ID", "s");\n%}\nGET http://x/a\n',
      '/w/api.http',
    );
    await expect(new ScriptRunner(5000, { allowNode: false }).checkModules(headers)).resolves.toBeUndefined();
  });

  it("JetBrains' global xpath(node, expr) is refused at its line; a method or function of that name is the script's own", async () => {
    const refused = await refusal(
      'GET http://x/a\n\n> {%\n  var n = 1;\n  client.log(xpath(response.body, "//a"));\n%}\n',
    );
    expect(refused.code).toBe('E_SCRIPT');
    expect(refused.message).toContain('xpath(node, expression)');
    expect(refused.location).toMatchObject({ file: '/w/api.http', line: 5 });
    const own = parseHttpFile('GET http://x/a\n\n> {%\n  client.log(doc.xpath("//a"));\n%}\n', '/w/api.http');
    await expect(new ScriptRunner(5000, { allowNode: false }).checkModules(own)).resolves.toBeUndefined();
  });

  it("JetBrains' streamed-body subscriptions (onEachLine, onEachMessage) are refused at their line", async () => {
    const refused = await refusal(
      'GET http://x/events\n\n> {%\n  response.body.onEachLine((line) => client.log(line));\n%}\n',
    );
    expect(refused.code).toBe('E_SCRIPT');
    expect(refused.message).toContain('onEachLine()');
    expect(refused.location).toMatchObject({ line: 4 });
  });

  it('a literal list passes; a placeholder reading it another way is refused at its line', async () => {
    const ok = parseHttpFile(
      '###\n< {%\n    request.variables.set("ids", [101, 102, 103]);\n%}\nGET http://x/api/resource/{{ids}}\n\n> {% client.log(request.iteration()); %}\n',
      '/w/api.http',
    );
    await expect(new ScriptRunner(5000, { allowNode: false }).checkModules(ok)).resolves.toBeUndefined();
    const indexed = await refusal(
      '< {%\n  request.variables.set("ids", [1, 2]);\n%}\nGET http://x/a\nX-First: {{ids[0]}}\n',
    );
    expect(indexed.code).toBe('E_INPUT');
    expect(indexed.message).toContain('{{ids[0]}} reads a list variable');
    expect(indexed.location).toMatchObject({ file: '/w/api.http', line: 5 });
    const two = await refusal(
      '< {%\n  request.variables.set("a", [1]);\n  request.variables.set("b", [2]);\n%}\nGET http://x/{{a}}\n\n{"b": {{b}}}\n',
    );
    expect(two.message).toContain('two lists');
    expect(two.location?.line).toBe(7);
  });

  it('ordinary scripts pass', async () => {
    const file = parseHttpFile(
      '< {%\n  request.variables.set("a", "1");\n%}\nGET http://x/{{a}}\n\n> {% client.global.set("t", response.body.token); %}\n',
      '/w/api.http',
    );
    await expect(new ScriptRunner(5000, { allowNode: false }).checkModules(file)).resolves.toBeUndefined();
  });
});

// kulala reads its metadata anywhere in a block: `# @env-json-key` and `# @env-stdin-cmd` under the
// headers are kept (the command runs where the workspace is trusted: script/shell-command.test.ts),
// a malformed command line is refused there too, never silently skipped.
import { describe, expect, it } from 'vitest';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';
import { isDialError } from '../../../src/core/errors.js';

describe('kulala metadata after the request line', () => {
  it('keeps # @env-json-key written under the headers', () => {
    const file = parseHttpFile(
      'POST http://x/e2\naccept: application/json\n# @env-json-key AUTH_TOKEN json.token\n\n{"a": 1}\n',
      '',
    );
    const [request] = file.requests;
    expect(request.metadata).toEqual([
      expect.objectContaining({ key: 'env-json-key', value: 'AUTH_TOKEN json.token' }),
    ]);
    expect(request.headers.map((header) => header.name)).toEqual(['accept']);
    expect(request.body).toMatchObject({ kind: 'inline', text: '{"a": 1}' });
  });

  it('keeps # @env-stdin-cmd under the headers; refuses one without a command at its line', () => {
    const [request] = parseHttpFile('GET http://x/\nAccept: */*\n# @env-stdin-cmd T jq -r .t\n', 'k.http').requests;
    expect(request.metadata).toEqual([expect.objectContaining({ key: 'env-stdin-cmd', value: 'T jq -r .t' })]);
    expect(request.headers.map((header) => header.name)).toEqual(['Accept']);
    let error: unknown;
    try {
      parseHttpFile('GET http://x/\nAccept: */*\n# @env-stdin-cmd T\n', 'k.http');
    } catch (caught) {
      error = caught;
    }
    expect(isDialError(error) && error.location?.line).toBe(3);
    expect(isDialError(error) && error.message).toContain('@env-stdin-cmd needs a variable name and a command');
  });

  it('refuses {{…}} in an -pre command (kulala runs it before filling variables in)', () => {
    let error: unknown;
    try {
      parseHttpFile('# @env-stdin-cmd-pre TOKEN echo {{user}}\nGET http://x/\n', 'k.http');
    } catch (caught) {
      error = caught;
    }
    expect(isDialError(error) && error.location?.line).toBe(1);
    expect(isDialError(error) && error.message).toContain('before variables are filled in');
    const [request] = parseHttpFile('# @stdin-cmd-pre date\n# @stdin-cmd tee out.json\nGET http://x/\n', '').requests;
    expect(request.metadata.map((meta) => meta.key)).toEqual(['stdin-cmd-pre', 'stdin-cmd']);
  });

  it('takes a kulala Lua script (`-- lua` first line) as a script; refuses it in an httpyac `{{ }}` block', () => {
    const [request] = parseHttpFile(
      'GET http://x/\n\n> {%\n  -- lua\n  client.global.token = 1\n%}\n',
      'k.http',
    ).requests;
    expect(request.handlers).toHaveLength(1);
    expect(request.handlers[0].kind === 'inline' && request.handlers[0].code).toContain('client.global.token = 1');
    let error: unknown;
    try {
      parseHttpFile('# @dialect rest.nvim\nGET http://x/\n\n> {%\n  -- lua\n  client.global.token = 1\n%}\n', 'k.http');
    } catch (caught) {
      error = caught;
    }
    expect(isDialError(error) && error.location?.line).toBe(4);
    expect(isDialError(error) && error.message).toContain('-- lua');
  });

  it('maps or ignores harmless # @curl- flags, refuses the ones that change what is sent', () => {
    const [request] = parseHttpFile(
      '# @curl-compressed\n# @curl-location\n# @curl-connect-timeout 20\n# @curl-max-time 5\nGET http://x/\n',
      '',
    ).requests;
    expect(request.connectTimeoutMs).toBe(20_000);
    expect(request.timeoutMs).toBe(5_000);
    let error: unknown;
    try {
      parseHttpFile('GET http://x/a\n\n###\n# @curl-data-urlencode\nPOST http://x/\n\na=b c\n', 'k.http');
    } catch (caught) {
      error = caught;
    }
    expect(isDialError(error) && error.location?.line).toBe(4);
    expect(isDialError(error) && error.hint).toContain('--data-urlencode');
  });
});

// A JSON body right under the headers, with no blank line: httpyac sends it as the body;
// JetBrains and REST Client cannot read the request (REST Client takes `{` for a header, and fails
// that request only). In a file that names one of those two that request is refused at that line
// and the others are read; files that name no tool send it with a warning.
import { describe, expect, it } from 'vitest';
import { parseHttpFile, refuseUnreadableRequests } from '../../../src/core/httpfile/index.js';
import { dialErrorThrownBy } from '../../helpers/dial-error.js';

const request = 'POST http://x/send\nContent-Type: application/json\n{\n  "msisdn": "1"\n}\n';

describe('a body with no blank line above it', () => {
  it('in a file that names no tool is sent as the body, with a warning at its line', () => {
    const file = parseHttpFile(request, 'a.http');
    expect(file.requests[0].body).toMatchObject({ kind: 'inline', text: '{\n  "msisdn": "1"\n}' });
    expect(file.warnings?.map((warning) => warning.message)).toEqual([
      'line 3 starts the body without a blank line after the headers',
    ]);
  });

  it('in httpyac files is the body, as httpyac reads it', () => {
    const file = parseHttpFile(`# @dialect httpyac\n${request}`, 'a.http');
    expect(file.requests[0].body).toMatchObject({ kind: 'inline', text: '{\n  "msisdn": "1"\n}' });
  });

  it.each(['jetbrains', 'rest-client'])(
    'in a file that names %s is refused at that line, that request only (the tools send the others)',
    (dialect) => {
      const text = `# @dialect ${dialect}\nGET http://x/before\n\n###\n${request}\n###\nGET http://x/after\n`;
      const file = parseHttpFile(text, 'a.http');
      expect(file.requests.map((r) => [r.url, r.refused?.line])).toEqual([
        ['http://x/before', undefined],
        ['http://x/send', 7],
        ['http://x/after', undefined],
      ]);
      expect(file.requests[1].refused).toMatchObject({
        message: 'line 7 starts the body without a blank line after the headers',
        col: 1,
        excerpt: '{',
        hint: expect.stringMatching(/leave a blank line/),
      });
      // Not also a warning: the request is refused, not sent.
      expect(file.warnings ?? []).toEqual([]);
      const flagged = parseHttpFile(request, 'a.http', { dialect: dialect as 'jetbrains' });
      expect(flagged.requests[0].refused).toMatchObject({ line: 3 });
    },
  );

  it('fails the whole file for the readers that take it whole (dial fmt, the k6 export)', () => {
    const file = parseHttpFile(`# @dialect rest-client\n${request}`, 'a.http');
    const error = dialErrorThrownBy(() => refuseUnreadableRequests(file));
    expect(error.code).toBe('E_PARSE');
    expect(error.message).toBe('line 4 starts the body without a blank line after the headers');
    expect(error.location).toMatchObject({ file: 'a.http', line: 4, col: 1 });
    expect(error.hint).toMatch(/leave a blank line/);
    const fine = parseHttpFile(request, 'a.http');
    expect(refuseUnreadableRequests(fine)).toBe(fine);
  });
});

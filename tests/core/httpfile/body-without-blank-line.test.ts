// A JSON body right under the headers, with no blank line: httpyac sends it as the body;
// JetBrains and REST Client cannot read the request (REST Client takes `{` for a header). A file
// that names one of those two stops at that line, as it would there; others send it with a warning.
import { describe, expect, it } from 'vitest';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';
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

  it.each(['jetbrains', 'rest-client'])('in a file that names %s is refused at that line', (dialect) => {
    const error = dialErrorThrownBy(() => parseHttpFile(`# @dialect ${dialect}\n${request}`, 'a.http'));
    expect(error.code).toBe('E_PARSE');
    expect(error.message).toBe('line 4 starts the body without a blank line after the headers');
    expect(error.location).toMatchObject({ file: 'a.http', line: 4 });
    expect(error.hint).toMatch(/leave a blank line/);
    const flagged = dialErrorThrownBy(() => parseHttpFile(request, 'a.http', { dialect: dialect as 'jetbrains' }));
    expect(flagged.location).toMatchObject({ line: 3 });
  });
});

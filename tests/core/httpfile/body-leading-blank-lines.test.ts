// Blank lines between the headers and the body: REST Client drops the first (its parser shifts one
// blank line away) and keeps the others as the body's first lines (held-out sweep 18:
// Advait0903/VideoChatSystem-Mern's api.rest). dial does the same in the REST Client dialect; the
// other tools' readings are not pinned down, so elsewhere the body starts at its first non-blank line.
import { describe, expect, it } from 'vitest';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';

const bodyOf = (text: string, path: string) => {
  const body = parseHttpFile(text, path).requests[0].body;
  return body?.kind === 'inline' ? body.text : body?.kind;
};

describe('blank lines before a body', () => {
  it('are kept after the first in the REST Client dialect, as REST Client sends them', () => {
    const text = 'POST http://x/otp HTTP/1.1\nContent-Type: application/json\n\n\n{\n  "phone": "1"\n}\n';
    expect(bodyOf(text, 'api.rest')).toBe('\n{\n  "phone": "1"\n}');
    expect(bodyOf('POST http://x/a\n\n\n  \nhello\n', 'a.rest')).toBe('\n  \nhello');
    expect(bodyOf(text.replace(/\n/g, '\r\n'), 'api.rest')).toBe('\r\n{\r\n  "phone": "1"\r\n}');
    expect(bodyOf(`# @dialect rest-client\n${text}`, 'api.http')).toBe('\n{\n  "phone": "1"\n}');
  });

  it('are dropped elsewhere, as before', () => {
    const text = 'POST http://x/otp\nContent-Type: application/json\n\n\n{"phone": "1"}\n';
    expect(bodyOf(text, 'api.http')).toBe('{"phone": "1"}');
    expect(bodyOf(`# @dialect jetbrains\n${text}`, 'api.http')).toBe('{"phone": "1"}');
    expect(bodyOf(`# @dialect httpyac\n${text}`, 'api.http')).toBe('{"phone": "1"}');
  });

  it('one blank line is only the separator, in every dialect', () => {
    expect(bodyOf('POST http://x/a\nContent-Type: text/plain\n\nhello\n', 'a.rest')).toBe('hello');
  });

  it('leave `< file` bodies and multipart bodies as they were', () => {
    expect(bodyOf('POST http://x/a\nContent-Type: application/json\n\n\n< ./body.json\n', 'a.rest')).toBe('file');
    const multipart =
      'POST http://x/a\nContent-Type: multipart/form-data; boundary=b\n\n\n--b\nContent-Disposition: form-data; name="a"\n\n1\n--b--\n';
    expect(bodyOf(multipart, 'a.rest')).toMatch(/^--b\n/);
  });
});

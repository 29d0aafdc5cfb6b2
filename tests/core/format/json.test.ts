import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonSyntaxError, parseJson, prettyJson, stringifyJson } from '../../../src/core/format/json.js';
import {
  BINARY_NOTE,
  formatBodyForTerminal,
  formatRequestHead,
  formatResponseHead,
  isBinary,
  parsePrintSpec,
} from '../../../src/core/format/exchange.js';
import { createStyle } from '../../../src/core/style.js';
import { DialError } from '../../../src/core/errors.js';

const plain = createStyle(false);
const colour = createStyle(true);

describe('JSON reader and pretty printer', () => {
  it('keeps the original key order, integer-like keys included, and number literals', () => {
    const text = '{"b":1,"2":2,"a":{"z":1.50,"1":1e3},"big":12345678901234567890,"neg":-0.0}';
    expect(prettyJson(text, plain)).toBe(
      [
        '{',
        '    "b": 1,',
        '    "2": 2,',
        '    "a": {',
        '        "z": 1.50,',
        '        "1": 1e3',
        '    },',
        '    "big": 12345678901234567890,',
        '    "neg": -0.0',
        '}',
      ].join('\n'),
    );
  });

  it('prints empty containers compactly and keeps string escapes', () => {
    expect(prettyJson('[{}, [], "a\\u00e9\\n", true, false, null]', plain)).toBe(
      '[\n    {},\n    [],\n    "a\\u00e9\\n",\n    true,\n    false,\n    null\n]',
    );
    expect(prettyJson('  "x"  ', plain)).toBe('"x"');
  });

  it('colours keys, strings, numbers, booleans and null when colour is on, and not when off', () => {
    const out = prettyJson('{"k":"v","n":1,"t":true,"z":null}', colour)!;
    expect(out).toContain('\x1b[34m"k"\x1b[0m');
    expect(out).toContain('\x1b[32m"v"\x1b[0m');
    expect(out).toContain('\x1b[33m1\x1b[0m');
    expect(out).toContain('\x1b[35mtrue\x1b[0m');
    expect(out).toContain('\x1b[90mnull\x1b[0m');
    expect(prettyJson('{"k":"v"}', plain)).not.toContain('\x1b[');
  });

  it('returns null for invalid JSON and reports where', () => {
    for (const bad of ['{', '{"a":1,}', '[1 2]', '{"a" 1}', "{'a':1}", '01', '1.', '"\u0001"', 'nul', '[1]x', '']) {
      expect(prettyJson(bad, plain)).toBeNull();
    }
    try {
      parseJson('{"a": tru}');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(JsonSyntaxError);
      expect((error as JsonSyntaxError).offset).toBe(6);
    }
  });

  it('reads deep nesting without recursion; printing too deep falls back to raw text instead of crashing', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(parseJson(deep).type).toBe('array');
    expect(prettyJson(deep, plain)).toBeNull();
    expect(stringifyJson(parseJson('['.repeat(500) + ']'.repeat(500)))).toBe('['.repeat(500) + ']'.repeat(500));
  });

  it('agrees with JSON.parse on every JSON value (property)', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        const printed = prettyJson(text, plain);
        expect(printed).not.toBeNull();
        expect(JSON.parse(printed!)).toEqual(JSON.parse(text));
        expect(JSON.parse(stringifyJson(parseJson(text)))).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });
});

describe('exchange formatting', () => {
  it('parses --print specs and refuses other letters', () => {
    expect(parsePrintSpec('Hb')).toEqual({
      requestHeaders: true,
      requestBody: false,
      responseHeaders: false,
      responseBody: true,
      meta: false,
    });
    expect(() => parsePrintSpec('Hx')).toThrow(DialError);
    expect(() => parsePrintSpec('')).toThrow(DialError);
  });

  it('prints a request line with the path and a Host header', () => {
    expect(
      formatRequestHead({ method: 'POST', url: 'http://localhost:3000/a?b=1', headers: [['Accept', '*/*']] }, plain),
    ).toBe('POST /a?b=1 HTTP/1.1\nHost: localhost:3000\nAccept: */*');
  });

  it('prints a coloured status line by class', () => {
    const head = {
      status: 404,
      statusText: 'Not Found',
      httpVersion: '1.1',
      headers: [['X', '1']] as Array<[string, string]>,
    };
    expect(formatResponseHead(head, plain)).toBe('HTTP/1.1 404 Not Found\nX: 1');
    expect(formatResponseHead(head, colour)).toContain('\x1b[33m404 Not Found\x1b[0m');
    expect(formatResponseHead({ ...head, status: 200, statusText: 'OK' }, colour)).toContain('\x1b[32m200 OK\x1b[0m');
  });

  it('pretty-prints JSON bodies, passes text through and hides binary on a terminal', () => {
    expect(formatBodyForTerminal(Buffer.from('{"b":1,"a":2}'), 'application/json', plain)).toBe(
      '{\n    "b": 1,\n    "a": 2\n}\n',
    );
    expect(formatBodyForTerminal(Buffer.from('{"a":1}'), 'application/problem+json; charset=utf-8', plain)).toContain(
      '    "a": 1',
    );
    expect(formatBodyForTerminal(Buffer.from('hello'), 'text/plain', plain)).toBe('hello\n');
    expect(formatBodyForTerminal(Buffer.from('{broken'), 'application/json', plain)).toBe('{broken\n');
    expect(formatBodyForTerminal(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1]), 'image/png', plain)).toBe(
      `${BINARY_NOTE}\n`,
    );
    expect(formatBodyForTerminal(Buffer.from([0xff, 0xfe, 0x41]), undefined, plain)).toBe(`${BINARY_NOTE}\n`);
    expect(isBinary(Buffer.from('héllo'), 'text/plain')).toBe(false);
    expect(isBinary(Buffer.from('plain'), 'application/octet-stream')).toBe(true);
  });
});

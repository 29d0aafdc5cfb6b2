// Parsing JetBrains/kulala `import` and `run` lines (core/httpfile/run-lines.ts and the parser).
import { describe, expect, it } from 'vitest';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';
import { parseRunLine } from '../../../src/core/httpfile/run-lines.js';

describe('run lines', () => {
  it('reads names (with spaces), files, file#name and (@var=value) overrides', () => {
    expect(parseRunLine('run #Request 1')).toEqual({ name: 'Request 1', variables: [] });
    expect(parseRunLine('run #POST https://x/a')).toEqual({ name: 'POST https://x/a', variables: [] });
    expect(parseRunLine('run ./requests/get.http')).toEqual({ path: './requests/get.http', variables: [] });
    expect(parseRunLine('run ./auth.http#Login')).toEqual({ path: './auth.http', name: 'Login', variables: [] });
    expect(parseRunLine('run #Login (@host=example.com, @user = "ann b")')).toEqual({
      name: 'Login',
      variables: [
        { name: 'host', value: 'example.com' },
        { name: 'user', value: 'ann b' },
      ],
    });
  });

  it('says what is wrong with a line that names neither', () => {
    expect(parseRunLine('run login')).toMatch(/names a request/);
    expect(parseRunLine('run #')).toMatch(/name after `#` is missing/);
    expect(parseRunLine('run #a (@=1)')).toMatch(/bad variable/);
  });
});

describe('the parser', () => {
  const text = [
    'import ./auth.http',
    '',
    '### Only runs',
    'run #Login',
    'run ./other.http (@a=1)',
    '',
    '### Runs then sends',
    'run #Login',
    'POST http://x/imported',
    '',
  ].join('\n');
  const file = parseHttpFile(text, '/w/main.http');

  it('keeps import lines on the file', () => {
    expect(file.imports).toEqual([{ path: './auth.http', span: { start: 0, end: 18, line: 1, col: 1 } }]);
  });

  it('a block of only run lines is a RUN node; run lines before a request line run before it', () => {
    expect(file.requests).toHaveLength(2);
    const [only, both] = file.requests;
    expect(only).toMatchObject({ name: 'Only runs', method: 'RUN', url: '#Login', runOnly: true });
    expect(only.requestLineSpan.line).toBe(4);
    expect(only.runs?.map((run) => [run.name, run.path, run.span.line])).toEqual([
      ['Login', undefined, 4],
      [undefined, './other.http', 5],
    ]);
    expect(only.runs?.[1].variables).toEqual([{ name: 'a', value: '1' }]);
    expect(both).toMatchObject({ method: 'POST', url: 'http://x/imported' });
    expect(both.runOnly).toBeUndefined();
    expect(both.runs?.map((run) => run.name)).toEqual(['Login']);
  });

  it('files without these lines carry no imports or runs', () => {
    const plain = parseHttpFile('GET http://x/\n', '');
    expect(plain.imports).toBeUndefined();
    expect(plain.requests[0].runs).toBeUndefined();
  });
});

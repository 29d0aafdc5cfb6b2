import { describe, expect, it } from 'vitest';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';
import { filesReadBy } from '../../../src/core/run/watch.js';

describe('filesReadBy', () => {
  it('lists the body files, multipart parts, scripts and schemas a .http file reads, not what it writes', () => {
    const text = [
      '### upload',
      '< ./pre.js',
      'POST http://x/upload',
      'Content-Type: multipart/form-data; boundary=b',
      '',
      '--b',
      'Content-Disposition: form-data; name="f"; filename="a.png"',
      '',
      '< ./img/a.png',
      '--b--',
      '',
      '> ./after.js',
      '>> ./out.json',
      '',
      '### json',
      'POST http://x/json',
      '',
      '<@ ../shared/body.json',
      '',
      '?? body schema ./widget.schema.json',
      '',
    ].join('\n');
    const read = filesReadBy(parseHttpFile(text, '/w/api/req.http')).sort();
    expect(read).toEqual([
      '/w/api/after.js',
      '/w/api/img/a.png',
      '/w/api/pre.js',
      '/w/api/widget.schema.json',
      '/w/shared/body.json',
    ]);
  });
});

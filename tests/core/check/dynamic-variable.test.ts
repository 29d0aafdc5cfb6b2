// `dial check` and a `{{$random.integer(…)}}` that `dial run` refuses. The fourteenth held-out sweep
// met `{{$random.integer(100000)}}` (one bound, where JetBrains documents `(from, to)`) in four
// files of one collection; dial used to send `100000`, now refuses it at the request, and check
// reports it at the placeholder.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFiles } from '../../../src/core/check/index.js';
import { tempDir } from '../../helpers/cli.js';

async function findings(http: string) {
  const root = tempDir('dial-check-dynamic-');
  mkdirSync(join(root, '.git'));
  writeFileSync(join(root, 'api.http'), http);
  const result = await checkFiles({ paths: [join(root, 'api.http')], cwd: root, cliVariables: {} });
  return result.findings.filter((f) => f.rule === 'dynamic-variable');
}

describe('dial check: $random.integer / $random.float bounds', () => {
  it('one bound, an empty range and non-numbers are errors at the placeholder', async () => {
    const found = await findings(
      [
        'POST http://localhost/api',
        'Content-Type: application/json',
        '',
        '{"a": "{{$random.integer(100000)}}", "b": {{$random.float(5, 5)}}, "c": {{$random.integer(x, 2)}}}',
        '',
      ].join('\n'),
    );
    expect(found.map((f) => [f.line, f.col, f.severity])).toEqual([
      [4, 8, 'error'],
      [4, 43, 'error'],
      [4, 73, 'error'],
    ]);
    expect(found[0].message).toContain('takes two bounds');
    expect(found[2].message).toContain('bad arguments');
  });

  it('two bounds, none, and the other $random functions pass', async () => {
    const found = await findings(
      'GET http://localhost/x?i={{$random.integer(1, 5)}}&j={{$random.integer()}}&f={{$random.float(0.5, 1)}}&s={{$random.alphabetic(4)}}&u={{$random.uuid}}\n',
    );
    expect(found).toEqual([]);
  });
});

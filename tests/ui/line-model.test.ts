import { describe, expect, it } from 'vitest';
import {
  allFoldable,
  applyJsonPath,
  buildJsonModel,
  buildLineModel,
  buildTextModel,
  buildView,
  findRow,
  foldTarget,
  rowText,
  PRETTY_LIMIT,
} from '../../src/ui/viewer/line-model.js';

const none = new Set<number>();
const texts = (model: ReturnType<typeof buildLineModel>, folded: ReadonlySet<number> = none): string[] => {
  const view = buildView(model, folded);
  return Array.from({ length: view.count }, (_, row) => rowText(view, row, folded));
};

describe('JSON line model', () => {
  it('pretty-prints like JSON.stringify(value, null, 2)', () => {
    const value = { a: 1, b: [true, null, 'x'], c: {}, d: [], e: { f: 'g' } };
    expect(texts(buildJsonModel(value)).join('\n')).toBe(JSON.stringify(value, null, 2));
  });

  it('folds a node to one line and unfolds it again', () => {
    const model = buildJsonModel({ a: { b: 1, c: 2 }, d: [1, 2, 3] });
    const view = buildView(model, none);
    const target = foldTarget(view, 2); // inside "a"
    expect(target).toBe(1);
    const folded = new Set([target!]);
    expect(texts(model, folded)).toEqual([
      '{',
      '  "a": { … } 2 items,',
      '  "d": [',
      '    1,',
      '    2,',
      '    3',
      '  ]',
      '}',
    ]);
    expect(buildView(model, folded).rowOf(3)).toBe(1);
  });

  it('fold all keeps the top level', () => {
    const model = buildJsonModel({ a: { b: 1 }, d: [1] });
    expect(texts(model, allFoldable(model))).toEqual(['{', '  "a": { … } 1 item,', '  "d": [ … ] 1 item', '}']);
  });

  it('finds rows with smart case, wrapping around', () => {
    const model = buildJsonModel({ alpha: 'X', beta: 'x', Gamma: 1 });
    const view = buildView(model, none);
    expect(findRow(view, none, 'x', 0, 1)).toBe(1);
    expect(findRow(view, none, 'x', 1, 1)).toBe(2);
    expect(findRow(view, none, 'X', 1, 1)).toBe(1);
    expect(findRow(view, none, 'gamma', 3, 1)).toBe(3);
    expect(findRow(view, none, 'x', 1, -1)).toBe(2);
    expect(findRow(view, none, 'nope', 0, 1)).toBe(-1);
  });

  it('filters with JSONPath in safe mode', () => {
    const value = { headers: { a: '1' }, items: [{ id: 1 }, { id: 2 }] };
    expect(applyJsonPath(value, '$.headers')).toEqual([{ a: '1' }]);
    expect(applyJsonPath(value, '$.items[?(@.id > 1)].id')).toEqual([2]);
    // Native evaluation is never used: code that is not a safe expression is rejected.
    expect(() => applyJsonPath(value, '$.items[?(process.exit(1))]')).toThrow();
  });
});

describe('text line model', () => {
  it('splits lines and hard-wraps long ones at the width', () => {
    const model = buildTextModel('abcdefghij\nxy\r\n\nlast', 4);
    expect(texts(model)).toEqual(['abcd', 'efgh', 'ij', 'xy', '', 'last']);
  });

  it('handles a trailing newline and empty text', () => {
    expect(texts(buildTextModel('a\nb\n', 10))).toEqual(['a', 'b']);
    expect(texts(buildTextModel('', 10))).toEqual(['']);
  });

  it('searches forward and backward by offset', () => {
    const model = buildTextModel('one\ntwo\nthree\ntwo again', 80);
    const view = buildView(model, none);
    expect(findRow(view, none, 'two', 0, 1)).toBe(1);
    expect(findRow(view, none, 'two', 1, 1)).toBe(3);
    expect(findRow(view, none, 'two', 3, 1)).toBe(1);
    expect(findRow(view, none, 'TWO', 0, 1)).toBe(-1);
    expect(findRow(view, none, 'two', 3, -1)).toBe(1);
    expect(findRow(view, none, 'two', 1, -1)).toBe(3);
  });

  it('indexes a large single-line body without copying rows', () => {
    const text = 'x'.repeat(1_000_000);
    const model = buildTextModel(text, 100);
    expect(model.count).toBe(10_000);
    const view = buildView(model, none);
    expect(rowText(view, 9_999, none)).toBe('x'.repeat(100));
  });
});

describe('buildLineModel', () => {
  it('pretty-prints JSON up to the limit and shows other text raw', () => {
    expect(buildLineModel('{"a":1}', { width: 80 }).kind).toBe('json');
    expect(buildLineModel('not json {', { width: 80 }).kind).toBe('text');
    expect(buildLineModel('{"broken":', { width: 80 }).kind).toBe('text');
    const big = JSON.stringify({ s: 'x'.repeat(PRETTY_LIMIT) });
    expect(buildLineModel(big, { width: 80 }).kind).toBe('text');
  });
});

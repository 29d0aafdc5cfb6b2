/**
 * httpyac expressions that change the variables they read (`{{counter.index++}}`, used by
 * `# @loop while`): what comes back out of the sandbox is JSON of the objects in scope, nothing else.
 */
import { describe, expect, it } from 'vitest';
import {
  computedThisLine,
  evaluateHttpyacExpression,
  expressionIdentifiers,
  mayChangeVariables,
  thisReads,
} from '../../../src/core/vars/httpyac-js.js';

const at = { file: 'x.http', line: 1 };

describe('httpyac expressions that change variables', () => {
  it('reports the objects an expression changed, with the value it gave', async () => {
    const changed = new Map<string, string>();
    const value = await evaluateHttpyacExpression(
      '6 + expression.index++',
      { expression: { index: 0 }, other: { a: 1 } },
      at,
      undefined,
      undefined,
      changed,
    );
    expect(value).toBe('6');
    expect([...changed]).toEqual([['expression', '{"index":1}']]);
  });

  it('a primitive reassigned in the expression changes nothing outside it (httpyac evaluates over a copy)', async () => {
    const changed = new Map<string, string>();
    expect(await evaluateHttpyacExpression('n++', { n: 4 }, at, undefined, undefined, changed)).toBe('4');
    expect(changed.size).toBe(0);
  });

  it('only JSON leaves the sandbox: a function put on an object is dropped, the host is out of reach', async () => {
    const changed = new Map<string, string>();
    await evaluateHttpyacExpression(
      '(o.f = function () { return 1; }, o.g = 2)',
      { o: { i: 0 } },
      at,
      undefined,
      undefined,
      changed,
    );
    expect(changed.get('o')).toBe('{"i":0,"g":2}');
    await expect(
      evaluateHttpyacExpression('(o.p = process.env.HOME)', { o: {} }, at, undefined, undefined, changed),
    ).rejects.toThrow(/process/);
    await expect(
      evaluateHttpyacExpression("(o.p = require('fs'))", { o: {} }, at, undefined, undefined, changed),
    ).rejects.toThrow(/fs/);
  });

  it('tells an expression that may change a variable from one that only reads', () => {
    expect(mayChangeVariables('expression.index++')).toBe(true);
    expect(mayChangeVariables('list.push(1)')).toBe(true);
    expect(mayChangeVariables('a.b = 1')).toBe(true);
    expect(mayChangeVariables('expression.index < 3')).toBe(false);
    expect(mayChangeVariables('a === b || c >= d')).toBe(false);
    expect(mayChangeVariables('items.map((x) => x.id)')).toBe(false);
  });
});

describe("httpyac's this (its variables object)", () => {
  it('thisReads names this.x, this["x"] and this[`name${$index}`] (with the pass index); another key is computed', () => {
    expect(thisReads('this.a + this[\'b\'] + this["c"] + this[`pass${$index}`].x', '2')).toEqual({
      names: ['a', 'b', 'c', 'pass2'],
    });
    expect(thisReads('[...this.seen] // this.inComment')).toEqual({ names: ['seen'] });
    expect(thisReads('const k = "a";\nthis[k]').computed).toBe(15);
    expect(computedThisLine('\n  const k = "a";\n  exports.v = this[k];\n', 4)).toBe(6);
    expect(thisReads('x.this.y')).toEqual({ names: [] });
  });

  it("a spread's name is a variable read (`[...items]`), a property is not", () => {
    expect(expressionIdentifiers('[...items, a.b]')).toEqual(['items', 'a']);
  });

  it('an expression sees its variables as this', async () => {
    const value = await evaluateHttpyacExpression('this.n + 1', { n: 41 }, { file: 'a.http', line: 1 });
    expect(value).toBe('42');
  });
});

import { describe, expect, it } from 'vitest';
import { literalConfig } from '../../../src/core/vars/js-literal.js';

describe('literalConfig: a JavaScript config that is one literal', () => {
  it('reads module.exports / export default of objects, arrays, strings, numbers, booleans and null', () => {
    expect(
      literalConfig(
        `'use strict';\n/* settings */\nmodule.exports = {\n  a: 'x\\'y', "b": "q\\"r\\n", 3: [1, -2.5, true, false, null,], // note\n  c: {},\n};\n`,
      ),
    ).toEqual({ a: "x'y", b: 'q"r\n', 3: [1, -2.5, true, false, null], c: {} });
    expect(literalConfig('export default { environments: { $shared: { host: "http://h" } } }')).toEqual({
      environments: { $shared: { host: 'http://h' } },
    });
  });
  it('gives undefined for anything that runs or names something', () => {
    for (const source of [
      'module.exports = { a: process.env.A };',
      'module.exports = { a: `x` };',
      'module.exports = { a: f() };',
      'const x = 1; module.exports = { a: x };',
      'module.exports = { ...base };',
      'module.exports = { configureHooks(api) {} };',
      'module.exports = { a: 1 }; require("fs");',
      'module.exports = [1];',
      'module.exports = { __proto__: { a: 1 } };',
      'module.exports = { a: "unterminated };',
      'module.exports = { a: 1 ',
    ])
      expect(literalConfig(source), source).toBeUndefined();
  });
});

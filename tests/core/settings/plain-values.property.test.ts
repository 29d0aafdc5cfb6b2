// loadSettings skips the zod schema for values plainlyValidSetting vouches for: every such
// value must pass the schema (a value it does not vouch for goes to the schema as before).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { plainlyValidSetting } from '../../../src/core/settings/plain-values.js';
import { checkValue } from '../../../src/core/settings/schema.js';
import { SETTING_KEYS } from '../../../src/core/settings/index.js';

// Values near each key's rules, and any JSON; each is passed through JSON as config.json is read.
const near = fc.oneof(
  fc.constantFrom(
    0,
    -1,
    1.5,
    3,
    -0,
    2 ** 53,
    2 ** 53 - 1,
    1e21,
    true,
    false,
    null,
    '',
    ' ',
    'dark',
    'light',
    'mono',
    'Dark',
    '30s',
    ' 500 ms ',
    '2m',
    '1.5h',
    '10',
    's',
    '1GiB',
    '512 mib',
    '0',
    '1e3',
    '-1s',
    'http://proxy.local:3128',
    'https://p:1',
    'socks5://h:1',
    'socks://h',
    'ftp://h',
    'proxy.local:3128',
    'http//x',
    'vim',
    [],
    ['a'],
    {},
    { '/w': 'dev' },
    { '/w': 1 },
    { preset: 'vim' },
    { quit: ['q'] },
    { quit: 'q' },
    { nosuch: ['x'] },
    JSON.parse('{"__proto__": "dev"}'),
    JSON.parse('{"__proto__": {"a": 1}}'),
  ),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 8 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.string({ maxLength: 4 }), fc.integer())),
  fc.jsonValue({ maxDepth: 2 }),
);

describe('plainly valid settings values', () => {
  it('pass the schema whenever they are vouched for', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SETTING_KEYS), near, (key, raw) => {
        const value: unknown = raw === undefined ? raw : JSON.parse(JSON.stringify(raw));
        if (plainlyValidSetting(key, value))
          expect(checkValue(key, value), `${key}: ${JSON.stringify(value)}`).toBeUndefined();
      }),
      { numRuns: 20_000 },
    );
  });

  it('vouch for the usual values', () => {
    const usual: Array<[(typeof SETTING_KEYS)[number], unknown]> = [
      ['timeout', '30s'],
      ['timeout', 10],
      ['followRedirects', true],
      ['maxRedirects', 5],
      ['verifyTls', false],
      ['historyLimit', 0],
      ['editor', 'vim'],
      ['theme', 'light'],
      ['keymap', { preset: 'vim' }],
      ['proxy', 'http://proxy.local:3128'],
      ['maxBodySize', '1GiB'],
      ['defaultEnvironment', { '/home/ann/api': 'dev' }],
      ['lastRequest', {}],
    ];
    for (const [key, value] of usual) {
      expect(plainlyValidSetting(key, value), key).toBe(true);
      expect(checkValue(key, value), key).toBeUndefined();
    }
    for (const [key, value] of [
      ['timeout', 'soon'],
      ['maxRedirects', -1],
      ['theme', 'blue'],
      ['defaultEnvironment', { '/w': 1 }],
    ] as const)
      expect(plainlyValidSetting(key, value), key).toBe(false);
  });
});

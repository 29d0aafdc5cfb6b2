import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseAssertion } from '../../../src/core/httpfile/assertion.js';
import type { AssertionNode, HttpFile } from '../../../src/core/httpfile/types.js';
import {
  createResponseView,
  createSnapshotStores,
  evaluateAssertion,
  parseExpected,
  type AssertContext,
} from '../../../src/core/assert/index.js';
import { evaluateAssertionNow } from '../../../src/core/assert/evaluate.js';
import { ScriptRunner } from '../../../src/core/script/index.js';
import { tempDir } from '../../helpers/cli.js';

const body = {
  id: 42,
  name: 'widget',
  tags: ['a', 'b'],
  items: [{ n: 1 }, { n: 2 }],
  ok: true,
  nothing: null,
  empty: [],
  price: 9.5,
};

function view(payload: unknown = body, contentType = 'application/json', status = 200) {
  const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
  return createResponseView({
    status,
    headers: [
      ['Content-Type', contentType],
      ['X-Id', 'abc-123'],
      ['Set-Cookie', 'a=1'],
      ['Set-Cookie', 'b=2'],
    ],
    durationMs: 12.4,
    bytes: Buffer.from(text),
  });
}

function node(text: string, line = 7): AssertionNode {
  return { ...parseAssertion(text), span: { start: 0, end: 0, line, col: 1 } };
}

function context(dir = tempDir(), overrides: Partial<AssertContext> = {}): AssertContext {
  const file: HttpFile = { path: join(dir, 'api.http'), text: '', variables: [], requests: [] };
  return {
    file,
    resolve: (t) =>
      t.replace(/\{\{(\w+)\}\}/g, (_, n: string) => ({ expectedId: '42', who: 'widget' })[n] ?? `{{${n}}}`),
    scripts: new ScriptRunner(),
    snapshotStore: createSnapshotStores(),
    updateSnapshots: false,
    snapshotKey: 'get widget',
    ...overrides,
  };
}

async function check(text: string, v = view(), ctx = context()) {
  return evaluateAssertion(node(text), v, ctx);
}

describe('assertions: each predicate passes and fails', () => {
  const cases: Array<[string, boolean]> = [
    ['status == 200', true],
    ['status == 201', false],
    ['status != 404', true],
    ['status != 200', false],
    ['status < 300', true],
    ['status < 200', false],
    ['status <= 200', true],
    ['status > 199', true],
    ['status >= 201', false],
    ['header content-type contains json', true],
    ['header content-type contains xml', false],
    ['header X-Id startsWith abc', true],
    ['header X-Id startsWith xyz', false],
    ['header x-id endsWith 123', true],
    ['header x-id endsWith 12', false],
    ['header x-id matches /^abc-\\d+$/', true],
    ['header x-id matches /^ABC/', false],
    ['header x-id matches /^ABC/i', true],
    ['header x-missing exists', false],
    ['header x-missing not exists', true],
    ['header x-id exists', true],
    ['header set-cookie == a=1, b=2', true],
    ['body $.id == 42', true],
    ['body $.id == 43', false],
    ['body $.id == {{expectedId}}', true],
    ['body $.name == {{who}}', true],
    ['body $.name == "widget"', true],
    ['body $.name == widget', true],
    ['body $.tags == ["a","b"]', true],
    ['body $.tags == ["a"]', false],
    ['body $.tags contains "a"', true],
    ['body $.tags contains c', false],
    ['body $.tags includes b', true],
    ['body $.id isNumber', true],
    ['body $.name isNumber', false],
    ['body $.name isString', true],
    ['body $.id isString', false],
    ['body $.ok isBoolean', true],
    ['body $.id isBoolean', false],
    ['body $.tags isArray', true],
    ['body $.name isArray', false],
    ['body $.items[0] isObject', true],
    ['body $.tags isObject', false],
    ['body $.nothing isNull', true],
    ['body $.id isNull', false],
    ['body $.empty isEmpty', true],
    ['body $.tags isEmpty', false],
    ['body $.tags not isEmpty', true],
    ['body $.tags length == 2', true],
    ['body $.tags length > 2', false],
    ['body $.name length >= 6', true],
    ['body $.missing exists', false],
    ['body $.nothing exists', true],
    ['body $.items[1].n == 2', true],
    ['body $.items[?(@.n > 1)].n == [2]', true],
    ['body $..n length == 2', true],
    ['body $.price > 9', true],
    ['body $.price < 9', false],
    ['body contains "widget"', true],
    ['body contains gadget', false],
    ['body == {"id":42}', false],
    ['duration < 5000', true],
    ['duration > 5000', false],
    ['js response.body.tags.length == 2', true],
    ['js response.status + 1 == 201', true],
    ['js response.body.id > 100', false],
    ['js response.headers.valueOf("x-id") == "abc-123"', true],
    ['js response.parsedBody.ok == true', true],
    ['status not == 500', true],
    ['status not == 200', false],
  ];
  for (const [text, expected] of cases) {
    it(`${expected ? 'passes' : 'fails'}: ${text}`, async () => {
      const result = await check(text);
      expect(result.passed, result.message).toBe(expected);
      if (!expected) {
        expect(result.source).toBe(text);
        expect(result.line).toBe(7);
        expect(result.message).toBeTruthy();
      }
    });
  }

  it('a failure says expected and actual', async () => {
    const result = await check('status == 201');
    expect(result).toMatchObject({ passed: false, expected: '== 201', actual: '200' });
  });

  it('whole-body equality compares JSON structurally', async () => {
    expect((await check('body == {"a":[1,2]}', view({ a: [1, 2] }))).passed).toBe(true);
    expect((await check('body == hello world', view('hello world', 'text/plain'))).passed).toBe(true);
  });

  it('xpath compares the text of what it selects in an XML body (httpyac)', async () => {
    const xml = view(
      '<bookstore><book><title>Everyday Italian</title></book><book><title>Go</title></book></bookstore>',
      'application/xml',
    );
    expect((await check('xpath /bookstore/book[1]/title == Everyday Italian', xml)).passed).toBe(true);
    expect((await check('xpath count(//book) == 2', xml)).passed).toBe(true);
    expect((await check('xpath //missing exists', xml)).passed).toBe(false);
    const wrong = await check('xpath /bookstore/book[2]/title == Rust', xml);
    expect(wrong).toMatchObject({ passed: false, actual: '"Go"' });
  });

  it('xpath on a body that is not XML, or a broken XPath, fails with the reason', async () => {
    expect((await check('xpath //a exists', view('{"a":1}'))).message).toMatch(/not XML/);
    expect((await check('xpath /a/!! exists', view('<a/>', 'application/xml'))).message).toMatch(/not a valid XPath/);
  });

  it('a JSONPath on a non-JSON body fails with a reason', async () => {
    const result = await check('body $.a exists', view('plain', 'text/plain'));
    expect(result.passed).toBe(false);
    expect(result.message).toMatch(/not JSON/);
  });

  it('a broken js expression fails with E_SCRIPT', async () => {
    const result = await check('js response.body.nope.deeper == 1');
    expect(result.passed).toBe(false);
    expect(result.message).toMatch(/E_SCRIPT/);
  });
});

describe('JSON Schema', () => {
  it('passes a valid body and lists failing instance paths', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'widget.schema.json'),
      JSON.stringify({
        type: 'object',
        required: ['id', 'name'],
        properties: {
          id: { type: 'string' },
          name: { type: 'string' },
          items: { type: 'array', items: { type: 'object', properties: { n: { type: 'string' } } } },
        },
      }),
    );
    const fail = await check('body schema ./widget.schema.json', view(), context(dir));
    expect(fail.passed).toBe(false);
    expect(fail.diff).toEqual(expect.arrayContaining(['$.id: must be string', '$.items[0].n: must be string']));
    writeFileSync(join(dir, 'ok.schema.json'), JSON.stringify({ type: 'object', required: ['id'] }));
    expect((await check('body schema ./ok.schema.json', view(), context(dir))).passed).toBe(true);
  });

  it('a missing schema file fails naming it', async () => {
    const result = await check('body schema ./nope.json');
    expect(result.passed).toBe(false);
    expect(result.message).toMatch(/E_NOT_FOUND.*nope\.json/);
  });
});

describe('snapshots', () => {
  it('writes on first run, passes, fails with a structural diff, and updates', async () => {
    const dir = tempDir();
    const ctx = context(dir);
    const first = await check('body snapshot ignore $.createdAt', view({ ...body, createdAt: 't1' }), ctx);
    expect(first).toMatchObject({ passed: true, message: 'snapshot written' });
    const snapPath = join(dir, '__snapshots__', 'api.http.snap.json');
    const stored = JSON.parse(readFileSync(snapPath, 'utf8'));
    expect(stored['get widget']).toEqual(body);
    expect(
      (await check('body snapshot ignore $.createdAt', view({ ...body, createdAt: 't2' }), context(dir))).passed,
    ).toBe(true);
    const changed = { ...body, name: 'gadget', tags: ['a'], extra: 1 };
    const fail = await check('body snapshot ignore $.createdAt', view(changed), context(dir));
    expect(fail.passed).toBe(false);
    expect(fail.diff).toEqual(['$.name: "widget" -> "gadget"', '$.tags[1]: "b" -> (none)', '$.extra: (none) -> 1']);
    const update = await check(
      'body snapshot ignore $.createdAt',
      view(changed),
      context(dir, { updateSnapshots: true }),
    );
    expect(update).toMatchObject({ passed: true, message: 'snapshot updated' });
    expect((await check('body snapshot', view(changed), context(dir))).passed).toBe(true);
    expect(existsSync(snapPath)).toBe(true);
  });

  it('a corrupt snapshot file is reported', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, '__snapshots__'));
    writeFileSync(join(dir, '__snapshots__', 'api.http.snap.json'), '[1]');
    const result = await check('body snapshot', view(), context(dir));
    expect(result.passed).toBe(false);
    expect(result.message).toMatch(/not a JSON object/);
  });
});

describe('evaluateAssertionNow (the run evaluates these at once)', () => {
  const sync = [
    'status == 200',
    'status != 200',
    'status < 300',
    'body $.id == 42',
    'body $.id == 43',
    'body $.name contains widg',
    'body $.tags length == 2',
    'body $.nothing isNull',
    'body $.missing exists',
    'body $.price > 9',
    'header X-Id == abc-123',
    'header Set-Cookie contains b=2',
    'body matches ^\\{"id"',
    'body == {"id": 1}',
    'duration < 100000',
    // A path the simple walker cannot answer: the JSONPath engine, a promise of the same result.
    'body $.items[?(@.n > 1)] length == 1',
    'body $.items[?(@.n > 1)] length == 2',
  ];
  it('gives what evaluateAssertion gives, passed or failed', async () => {
    const ctx = context();
    for (const text of sync) {
      const now = evaluateAssertionNow(node(text), view(), ctx);
      expect(now, text).toBeDefined();
      expect(await now, text).toEqual(await evaluateAssertion(node(text), view(), ctx));
    }
    // The run calls it without a context (made only for what waits): the same results, twice over
    // (expected values the run meets again come from parseExpected's cache).
    for (let round = 0; round < 2; round++)
      for (const text of sync)
        expect(await evaluateAssertionNow(node(text), view()), text).toEqual(
          await evaluateAssertion(node(text), view(), ctx),
        );
    // A value that cannot be read: the same failure either way.
    const html = view('<p>hi</p>', 'text/html');
    expect(evaluateAssertionNow(node('body $.id == 42'), html, ctx)).toEqual(
      await evaluateAssertion(node('body $.id == 42'), html, ctx),
    );
  });

  it('leaves to evaluateAssertion what has to wait: placeholders, scripts, XPath, schemas, snapshots', () => {
    const ctx = context();
    for (const text of [
      'body $.id == {{expectedId}}',
      'js response.status == 200',
      'xpath //p == hi',
      'body schema ./s.json',
      'body snapshot',
    ])
      expect(evaluateAssertionNow(node(text), view(), ctx), text).toBeUndefined();
  });
});

describe('parseExpected', () => {
  it('answers the same value each time; an object or array is a new one each time (callers may change it)', () => {
    for (let round = 0; round < 2; round++) {
      expect(parseExpected('200')).toBe(200);
      expect(parseExpected(' true ')).toBe(true);
      expect(parseExpected('null')).toBeNull();
      expect(parseExpected('"quoted"')).toBe('quoted');
      expect(parseExpected('plain text')).toBe('plain text');
      expect(parseExpected('')).toBe('');
    }
    const first = parseExpected('{"a":[1]}');
    expect(first).toEqual({ a: [1] });
    (first as { a: number[] }).a.push(2);
    expect(parseExpected('{"a":[1]}')).toEqual({ a: [1] });
    expect(parseExpected('[1,2]')).not.toBe(parseExpected('[1,2]'));
  });
});

// requestReportJson writes a request's entry of the JSON report as text; it must give exactly what
// JSON.stringify(toRequestReport(result)) gives, for the common entry and for every other.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requestReportJson, toRequestReport } from '../../../src/core/report/collect.js';
import type { RequestResult } from '../../../src/core/run/types.js';

const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('"', '\\', '\u2028', 'é', '</script>', ''),
);
const number = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -0, 1e21, 1.005, Number.NaN, Number.POSITIVE_INFINITY),
);
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined, freq: 3 });

const assertion = fc.record(
  {
    kind: fc.constantFrom('assertion', 'test'),
    source: text,
    passed: fc.boolean(),
    line: maybe(fc.oneof(fc.nat(), number)),
    expected: maybe(text),
    actual: maybe(text),
    message: maybe(text),
    diff: maybe(fc.array(text, { maxLength: 2 })),
  },
  { requiredKeys: ['kind', 'source', 'passed'] },
);

const result = fc.record(
  {
    index: fc.oneof(fc.nat(), number),
    name: text,
    line: fc.oneof(fc.nat(), number),
    method: fc.constantFrom('GET', 'POST', 'DELETE'),
    url: text,
    status: fc.constantFrom('passed', 'failed', 'errored', 'skipped'),
    attempts: fc.nat(5),
    durationMs: number,
    httpStatus: maybe(fc.oneof(fc.integer({ min: 100, max: 599 }), number)),
    assertions: fc.array(assertion, { maxLength: 3 }),
    error: maybe(fc.record({ code: fc.constant('E_NETWORK'), message: text })),
    skipReason: maybe(text),
    logs: maybe(fc.array(text, { maxLength: 2 })),
  },
  { requiredKeys: ['index', 'name', 'line', 'method', 'url', 'status', 'attempts', 'durationMs', 'assertions'] },
);

describe('requestReportJson', () => {
  it('equals JSON.stringify(toRequestReport(result)) for any result', () => {
    fc.assert(
      fc.property(result, (value) => {
        const entry = value as RequestResult;
        expect(requestReportJson(entry)).toBe(JSON.stringify(toRequestReport(entry)));
      }),
      { numRuns: 3000 },
    );
  });

  it('writes the common entry of a run (two passing assertions) as before', () => {
    const entry: RequestResult = {
      index: 3,
      name: 'r3',
      line: 14,
      method: 'GET',
      url: 'http://127.0.0.1:8080/json?q="x"',
      status: 'passed',
      attempts: 1,
      durationMs: 1.23456,
      httpStatus: 200,
      assertions: [
        { kind: 'assertion', source: 'status == 200', passed: true, line: 16 },
        { kind: 'assertion', source: 'body $.id == 42', passed: true, line: 17 },
      ],
    };
    expect(requestReportJson(entry)).toBe(JSON.stringify(toRequestReport(entry)));
    expect(JSON.parse(requestReportJson(entry))).toEqual({
      index: 3,
      name: 'r3',
      line: 14,
      method: 'GET',
      url: 'http://127.0.0.1:8080/json?q="x"',
      status: 'passed',
      attempts: 1,
      durationMs: 1.23,
      assertions: [
        { kind: 'assertion', source: 'status == 200', passed: true, line: 16 },
        { kind: 'assertion', source: 'body $.id == 42', passed: true, line: 17 },
      ],
      httpStatus: 200,
    });
  });
});

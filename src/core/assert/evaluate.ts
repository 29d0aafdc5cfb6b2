/**
 * Evaluates `?? …` assertions against a response: the query picks the actual value, the
 * predicate decides, and a failure says the assertion as written, where, expected and actual.
 */
import { dirname, resolve as resolvePath } from 'node:path';
import type { AssertionNode, HttpFile } from '../httpfile/types.js';
import { isDialError } from '../errors.js';
import { queryJsonPath } from './json-path.js';
import { applyPredicate, parseExpected, showValue } from './predicates.js';
import type { ResponseView } from './response-view.js';
import { validateSchema } from './schema.js';
import { SnapshotStore, snapshotPathFor, structuralDiff, withoutIgnored } from './snapshot.js';

/** One checked expectation: an assertion line or a script's `client.test`. */
export interface AssertionResult {
  kind: 'assertion' | 'test';
  /** The assertion as written (`status == 200`) or the test name. */
  source: string;
  /** Line in the .http file. */
  line?: number;
  passed: boolean;
  expected?: string;
  actual?: string;
  message?: string;
  /** Structural diff lines (`path: expected -> actual`) for snapshots; error lines for schemas. */
  diff?: string[];
}

/**
 * What assertions need of the script sandbox (core/script's ScriptRunner): a `?? js` expression
 * evaluated against the response. Declared here so assert does not depend on script, which
 * depends on assert's ResponseView.
 */
export interface ExpressionEvaluator {
  evaluate(expression: string, view: ResponseView, location: { file: string; line: number }, ownName?: string): unknown;
}

export interface AssertContext {
  file: HttpFile;
  /** Resolves `{{variables}}` in an expected value (session.resolveTemplate). */
  resolve: (template: string) => string | Promise<string>;
  scripts: ExpressionEvaluator;
  snapshotStore: (httpFilePath: string) => SnapshotStore;
  updateSnapshots: boolean;
  /** Key of this request in the snapshot file (its name, or `#index`). */
  snapshotKey: string;
  /** httpyac: the request's own name, which its `?? js` lines read as this response's body. */
  ownName?: string;
}

/** A snapshot store per .http file for one run. */
export function createSnapshotStores(): (httpFilePath: string) => SnapshotStore {
  const stores = new Map<string, SnapshotStore>();
  return (path) => {
    let store = stores.get(path);
    if (!store) {
      store = new SnapshotStore(snapshotPathFor(path));
      stores.set(path, store);
    }
    return store;
  };
}

const STRING_PREDICATES = new Set(['contains', 'startsWith', 'endsWith', 'matches']);

function actualValue(assertion: AssertionNode, view: ResponseView, context: AssertContext | undefined): unknown {
  switch (assertion.query) {
    case 'status':
      return view.status;
    case 'duration':
      return Math.round(view.durationMs);
    case 'header': {
      const values = view.headerValues(assertion.argument ?? '');
      return values.length === 0 ? undefined : values.join(', ');
    }
    case 'body': {
      if (assertion.argument) {
        const json = view.json();
        if (json === undefined) throw new Error(`the body is not JSON, so '${assertion.argument}' has no value`);
        return queryJsonPath(json, assertion.argument);
      }
      // The whole body: text for string predicates, the parsed JSON for everything else when it is JSON.
      if (STRING_PREDICATES.has(assertion.predicate)) return view.text();
      const json = view.json();
      if (json !== undefined) {
        if (assertion.predicate === '==' || assertion.predicate === '!=') {
          const expected = parseExpected(assertion.expected ?? '');
          if (typeof expected !== 'object' || expected === null) return view.text();
        }
        return json;
      }
      return view.text();
    }
    case 'js':
      // (evaluateAssertionNow, which may have no context, never reads a `js` query.)
      return context!.scripts.evaluate(
        assertion.argument ?? 'undefined',
        view,
        { file: context!.file.path, line: assertion.span.line },
        context!.ownName,
      );
    case 'xpath':
      return xpathValue(view.text(), assertion.argument ?? '', assertion.namespaces);
  }
}

/** httpyac's `?? xpath EXPR …`: the text of what the XPath selects in the XML body (the libraries load here only). */
async function xpathValue(xml: string, expression: string, namespaces?: Record<string, string>): Promise<unknown> {
  const { evaluateXPath, assertionValue } = await import('../xpath.js');
  return assertionValue(await evaluateXPath(xml, expression, namespaces));
}

function failure(assertion: AssertionNode, message: string, extra: Partial<AssertionResult> = {}): AssertionResult {
  return { kind: 'assertion', source: assertion.source, line: assertion.span.line, passed: false, message, ...extra };
}

async function evaluateSchema(
  assertion: AssertionNode,
  view: ResponseView,
  context: AssertContext,
): Promise<AssertionResult> {
  const schemaPath = resolvePath(dirname(context.file.path), await context.resolve(assertion.expected ?? ''));
  const json = view.json();
  if (json === undefined)
    return failure(assertion, 'the body is not JSON', {
      expected: `matches ${assertion.expected}`,
      actual: showValue(view.text(), 200),
    });
  const errors = await validateSchema(schemaPath, json);
  const passed = assertion.not ? errors.length > 0 : errors.length === 0;
  if (passed) return { kind: 'assertion', source: assertion.source, line: assertion.span.line, passed: true };
  return failure(
    assertion,
    assertion.not
      ? 'the body matches the schema'
      : `the body does not match the schema (${errors.length} error${errors.length === 1 ? '' : 's'})`,
    {
      expected: `${assertion.not ? 'not ' : ''}valid against ${assertion.expected}`,
      actual: errors[0] ?? 'valid',
      diff: errors,
    },
  );
}

async function evaluateSnapshot(
  assertion: AssertionNode,
  view: ResponseView,
  context: AssertContext,
  key: string,
): Promise<AssertionResult> {
  const json = view.json();
  const current = await withoutIgnored(json === undefined ? view.text() : json, assertion.ignore);
  const store = context.snapshotStore(context.file.path);
  const stored = await store.get(key);
  if (!stored.found || context.updateSnapshots) {
    await store.set(key, current);
    return {
      kind: 'assertion',
      source: assertion.source,
      line: assertion.span.line,
      passed: true,
      message: stored.found ? 'snapshot updated' : 'snapshot written',
    };
  }
  const expected = await withoutIgnored(stored.value, assertion.ignore);
  const diff = structuralDiff(expected, current);
  const passed = assertion.not ? diff.length > 0 : diff.length === 0;
  if (passed) return { kind: 'assertion', source: assertion.source, line: assertion.span.line, passed: true };
  return failure(
    assertion,
    assertion.not
      ? 'the body equals the snapshot'
      : `the body differs from snapshot '${key}' (${diff.length} difference${diff.length === 1 ? '' : 's'}); run with --update-snapshots to accept it`,
    {
      expected: showValue(expected, 200),
      actual: showValue(current, 200),
      diff,
    },
  );
}

/** Evaluates one assertion; never throws for a failing or broken assertion (it answers a failed result). */
export async function evaluateAssertion(
  assertion: AssertionNode,
  view: ResponseView,
  context: AssertContext,
  snapshotIndex = 0,
): Promise<AssertionResult> {
  try {
    if (assertion.unknownQuery !== undefined)
      return failure(
        assertion,
        `httpyac has no '${assertion.unknownQuery}' assertion query: it tests the value false there, which checks nothing, and dial counts the test as failed; write \`?? js <expression> == <value>\``,
      );
    if (assertion.predicate === 'schema') return await evaluateSchema(assertion, view, context);
    if (assertion.predicate === 'snapshot')
      return await evaluateSnapshot(
        assertion,
        view,
        context,
        snapshotIndex === 0 ? context.snapshotKey : `${context.snapshotKey} (${snapshotIndex + 1})`,
      );
    let actual = actualValue(assertion, view, context);
    if (actual instanceof Promise) actual = await actual;
    const expectedText =
      assertion.expected === undefined
        ? ''
        : assertion.expected.includes('{{')
          ? await context.resolve(assertion.expected)
          : assertion.expected;
    return judge(assertion, actual, expectedText);
  } catch (error) {
    return errorResult(assertion, error);
  }
}

/**
 * evaluateAssertion at once, for an assertion with nothing to wait for (no schema, snapshot,
 * script, XPath or placeholder in its expected value); undefined for any other. A JSONPath the
 * simple walker cannot answer gives a promise of the result. Same result as evaluateAssertion.
 */
export function evaluateAssertionNow(
  assertion: AssertionNode,
  view: ResponseView,
  context?: AssertContext,
): AssertionResult | Promise<AssertionResult> | undefined {
  if (
    assertion.predicate === 'schema' ||
    assertion.predicate === 'snapshot' ||
    assertion.query === 'js' ||
    assertion.query === 'xpath' ||
    (assertion.expected !== undefined && assertion.expected.includes('{{'))
  )
    return undefined;
  const expectedText = assertion.expected ?? '';
  try {
    const actual = actualValue(assertion, view, context);
    if (actual instanceof Promise)
      return actual.then(
        (value) => judgeOrError(assertion, value, expectedText),
        (error: unknown) => errorResult(assertion, error),
      );
    return judge(assertion, actual, expectedText);
  } catch (error) {
    return errorResult(assertion, error);
  }
}

function judgeOrError(assertion: AssertionNode, actual: unknown, expectedText: string): AssertionResult {
  try {
    return judge(assertion, actual, expectedText);
  } catch (error) {
    return errorResult(assertion, error);
  }
}

/** The assertion's result, given the value it reads and its expected text (placeholders resolved). */
function judge(assertion: AssertionNode, actual: unknown, expectedText: string): AssertionResult {
  const expected = assertion.predicate === 'matches' ? expectedText : parseExpected(expectedText);
  // Schema and snapshot assertions are evaluated apart (evaluateAssertion), never here.
  const predicate = assertion.predicate as Parameters<typeof applyPredicate>[0];
  const ok = applyPredicate(predicate, actual, expected, expectedText, assertion.lengthOperator);
  const passed = assertion.not ? !ok : ok;
  if (passed) return { kind: 'assertion', source: assertion.source, line: assertion.span.line, passed: true };
  const op = assertion.predicate === 'length' ? `length ${assertion.lengthOperator ?? '=='}` : assertion.predicate;
  const expectedShown = `${assertion.not ? 'not ' : ''}${op}${assertion.expected === undefined ? '' : ` ${assertion.predicate === 'matches' ? expectedText : showValue(expected)}`}`;
  let actualShown = showValue(actual);
  if (assertion.predicate === 'length' && actual !== undefined)
    actualShown = `length ${String((actual as { length?: number }).length ?? Object.keys(actual as object).length)} (${showValue(actual, 120)})`;
  return failure(assertion, `expected ${expectedShown}, got ${actualShown}`, {
    expected: expectedShown,
    actual: actualShown,
  });
}

/** An assertion that could not be evaluated (its value could not be read, say): failed, with why. */
function errorResult(assertion: AssertionNode, error: unknown): AssertionResult {
  const message = error instanceof Error ? error.message : String(error);
  return failure(assertion, isDialError(error) ? `${error.code}: ${message}` : message);
}

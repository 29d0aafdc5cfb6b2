/**
 * GraphQL answers 200 even when a query failed: the failure is the `errors` list of the JSON
 * body. dial shows them (`dial send` warns on stderr, the workbench and `dial run` fail the
 * request unless it asserts on them), so a broken query never looks like a success.
 */
import type { Exchange } from './types.js';

/** One line per GraphQL error in the answer (`message (path a.b, line 2:3)`); empty when there are none. */
export function graphqlErrorsOf(exchange: Exchange): string[] {
  const body = exchange.response.body;
  if (body.kind !== 'memory' || body.bytes.length === 0) return [];
  return graphqlErrorsInText(body.bytes.toString('utf8'));
}

/** The GraphQL errors of a response body's text (see graphqlErrorsOf). */
export function graphqlErrorsInText(text: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  const errors = (parsed as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors)) return [];
  return errors.map(describeError);
}

function describeError(error: unknown): string {
  if (typeof error !== 'object' || error === null) return JSON.stringify(error);
  const { message, path, locations } = error as { message?: unknown; path?: unknown; locations?: unknown };
  const where: string[] = [];
  if (Array.isArray(path) && path.length > 0) where.push(`path ${path.join('.')}`);
  if (Array.isArray(locations) && locations.length > 0) {
    const first = locations[0] as { line?: unknown; column?: unknown };
    if (typeof first?.line === 'number') where.push(`line ${first.line}:${String(first.column ?? 1)}`);
  }
  const text = typeof message === 'string' ? message : JSON.stringify(error);
  return where.length > 0 ? `${text} (${where.join(', ')})` : text;
}

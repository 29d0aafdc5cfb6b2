/**
 * JSONPath queries for assertions and snapshots. Simple paths (`$.a.b[0]['c']`) are compiled
 * once into segments and walked directly (the hot path of `dial run`); anything else goes to
 * jsonpath-plus in its safe evaluation mode (never native eval), imported on first use.
 */
type Segment = string | number;

const simpleCache = new Map<string, Segment[] | null>();
const SIMPLE = /^\$(?:\.[A-Za-z_$][\w$-]*|\[\d+\]|\['[^'\\]*'\]|\["[^"\\]*"\])*$/;
const SEGMENT = /\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\['([^'\\]*)'\]|\["([^"\\]*)"\]/g;

/** The segments of a simple path, or null when the path needs the full JSONPath engine. */
export function simplePath(path: string): Segment[] | null {
  let segments = simpleCache.get(path);
  if (segments !== undefined) return segments;
  segments = null;
  if (SIMPLE.test(path)) {
    segments = [];
    for (const match of path.slice(1).matchAll(SEGMENT)) {
      if (match[1] !== undefined) segments.push(match[1]);
      else if (match[2] !== undefined) segments.push(Number(match[2]));
      else segments.push(match[3] ?? match[4]);
    }
  }
  if (simpleCache.size > 10_000) simpleCache.clear();
  simpleCache.set(path, segments);
  return segments;
}

function walk(value: unknown, segments: Segment[]): unknown {
  let current = value;
  for (const segment of segments) {
    if (current === null || typeof current !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, segment)) return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

/** True when a path can match at most one value (no wildcards, filters, unions, slices or descent). */
export function isDefinitePath(path: string): boolean {
  return simplePath(path) !== null || !/\*|\.\.|\?\(|,|:|\(/.test(path);
}

type JsonPathFn = (options: Record<string, unknown>) => unknown;
let engine: JsonPathFn | undefined;

async function loadEngine(): Promise<JsonPathFn> {
  if (!engine) {
    const module = await import('jsonpath-plus');
    engine = module.JSONPath as unknown as JsonPathFn;
  }
  return engine;
}

/**
 * Evaluates a JSONPath: a definite path answers its value (undefined when absent); other
 * paths answer the array of matches.
 */
export function queryJsonPath(json: unknown, path: string): unknown | Promise<unknown> {
  const segments = simplePath(path);
  // Simple paths answer synchronously: no promise per assertion on the hot path.
  if (segments) return walk(json, segments);
  return queryWithEngine(json, path);
}

async function queryWithEngine(json: unknown, path: string): Promise<unknown> {
  const JSONPath = await loadEngine();
  let results: unknown[];
  try {
    results = JSONPath({ path, json: json as object, wrap: true, eval: 'safe' }) as unknown[];
  } catch (error) {
    throw new Error(`invalid JSONPath '${path}': ${error instanceof Error ? error.message : String(error)}`);
  }
  if (isDefinitePath(path)) return results?.[0];
  return results ?? [];
}

/** Removes every value a JSONPath matches from a (cloned by the caller) JSON value. */
export async function removeJsonPath(json: unknown, path: string): Promise<void> {
  const segments = simplePath(path);
  if (segments) {
    if (segments.length === 0) return;
    const parent = walk(json, segments.slice(0, -1));
    const key = segments[segments.length - 1];
    if (Array.isArray(parent) && typeof key === 'number') parent.splice(key, 1);
    else if (parent && typeof parent === 'object') delete (parent as Record<string | number, unknown>)[key];
    return;
  }
  const JSONPath = await loadEngine();
  const matches = (JSONPath({ path, json: json as object, wrap: true, eval: 'safe', resultType: 'all' }) ??
    []) as Array<{ parent: unknown; parentProperty: string | number }>;
  // Remove array items from the end so earlier indexes stay valid.
  for (const match of [...matches].reverse()) {
    const { parent, parentProperty } = match;
    if (Array.isArray(parent) && typeof parentProperty === 'number') parent.splice(parentProperty, 1);
    else if (parent && typeof parent === 'object') delete (parent as Record<string | number, unknown>)[parentProperty];
  }
}

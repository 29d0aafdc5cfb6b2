/** JSONPath over parsed JSON with jsonpath-plus in its safe evaluation mode (loaded lazily). */

/** All matches of a JSONPath expression (an empty array when nothing matches). */
export async function queryJsonPath(json: unknown, path: string): Promise<unknown[]> {
  const { JSONPath } = await import('jsonpath-plus');
  const result = JSONPath({ path, json: json as object, eval: 'safe', wrap: true });
  return Array.isArray(result) ? result : [];
}

/** A value as text for a template: strings as they are, everything else as JSON. */
export function valueToText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value);
}

/** A JSON object: not null, not an array. What env files, settings and message inputs must hold. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

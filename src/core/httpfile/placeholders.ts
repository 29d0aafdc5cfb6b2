/** `{{ … }}` placeholders in templates (URLs, headers, bodies, variable values). */

export interface Placeholder {
  /** Offset of `{{`. */
  start: number;
  /** Offset just after `}}`. */
  end: number;
  /** The trimmed text between the braces. */
  expression: string;
}

/** Every `{{…}}` in text, left to right (no nesting; an unclosed `{{` is left as text). */
export function findPlaceholders(text: string): Placeholder[] {
  const found: Placeholder[] = [];
  let at = text.indexOf('{{');
  while (at >= 0) {
    const close = text.indexOf('}}', at + 2);
    if (close < 0) break;
    // `{{{x}}}`: the placeholder is the innermost `{{x}}`.
    let open = at;
    while (text.charCodeAt(open + 2) === 123 && open + 3 < close) open++;
    found.push({ start: open, end: close + 2, expression: text.slice(open + 2, close).trim() });
    at = text.indexOf('{{', close + 2);
  }
  return found;
}

/** True when text holds at least one `{{…}}`. */
export function hasPlaceholders(text: string): boolean {
  const at = text.indexOf('{{');
  return at >= 0 && text.indexOf('}}', at + 2) >= 0;
}

/** Replaces each placeholder with what `resolve` returns for it (in order, one at a time). */
export async function substitute(
  text: string,
  resolve: (expression: string, placeholder: Placeholder) => Promise<string>,
): Promise<string> {
  const placeholders = findPlaceholders(text);
  if (placeholders.length === 0) return text;
  let out = '';
  let at = 0;
  for (const placeholder of placeholders) {
    out += text.slice(at, placeholder.start) + (await resolve(placeholder.expression, placeholder));
    at = placeholder.end;
  }
  return out + text.slice(at);
}

/**
 * Semantic colours for plain (non-Ink) output: send, reporters, lists. One switch turns
 * them all off, so NO_COLOR and pipes are handled in one place.
 */
const codes = {
  reset: '\x1b[0m',
  bold: '\x1b[1m',
  dim: '\x1b[2m',
  red: '\x1b[31m',
  green: '\x1b[32m',
  yellow: '\x1b[33m',
  blue: '\x1b[34m',
  magenta: '\x1b[35m',
  cyan: '\x1b[36m',
  gray: '\x1b[90m',
} as const;

type Paint = (text: string) => string;

export interface Style {
  enabled: boolean;
  ok: Paint;
  warn: Paint;
  error: Paint;
  dim: Paint;
  bold: Paint;
  method: Paint;
  url: Paint;
  headerName: Paint;
  syntax: { key: Paint; string: Paint; number: Paint; boolean: Paint; null: Paint; punctuation: Paint };
}

/** Returns painters that add ANSI colour when enabled and return text unchanged otherwise. */
export function createStyle(enabled: boolean): Style {
  const paint = (...names: Array<keyof typeof codes>): Paint =>
    enabled ? (text) => `${names.map((n) => codes[n]).join('')}${text}${codes.reset}` : (text) => text;
  return {
    enabled,
    ok: paint('green'),
    warn: paint('yellow'),
    error: paint('red'),
    dim: paint('gray'),
    bold: paint('bold'),
    method: paint('bold', 'magenta'),
    url: paint('cyan'),
    headerName: paint('cyan'),
    syntax: {
      key: paint('blue'),
      string: paint('green'),
      number: paint('yellow'),
      boolean: paint('magenta'),
      null: paint('gray'),
      punctuation: (text) => text,
    },
  };
}

/** Colours a status code by class: 2xx ok, 3xx dim, 4xx warn, 5xx error. */
export function paintStatus(style: Style, status: number, text: string): string {
  if (status >= 500) return style.error(text);
  if (status >= 400) return style.warn(text);
  if (status >= 300) return style.dim(text);
  return style.ok(text);
}

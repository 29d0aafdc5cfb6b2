/**
 * Semantic colours for the TUI. Components ask for `theme.status.ok` or `theme.syntax.key`,
 * never for a colour name, so NO_COLOR (and future themes) is one switch here.
 */
export interface Theme {
  enabled: boolean;
  status: {
    ok?: string;
    redirect?: string;
    clientError?: string;
    serverError?: string;
    pending?: string;
    failed?: string;
  };
  syntax: { key?: string; string?: string; number?: string; boolean?: string; null?: string; punctuation?: string };
  method?: string;
  url?: string;
  headerName?: string;
  accent?: string;
  muted?: string;
  border?: string;
  borderFocused?: string;
  selection: { color?: string; background?: string };
  match: { color?: string; background?: string };
  error?: string;
  warn?: string;
  diff: { added?: string; removed?: string };
}

/** The `theme` setting's values: `dark` (default), `light` (darker colours for light backgrounds), `mono` (no colour, as NO_COLOR). */
export const themeNames = ['dark', 'light', 'mono'] as const;
export type ThemeName = (typeof themeNames)[number];

export class ThemeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ThemeError';
  }
}

/** The theme named by the setting (unset = dark); an unknown name is an error naming it. */
export function themeName(setting: unknown): ThemeName {
  if (setting === undefined) return 'dark';
  if (typeof setting === 'string' && (themeNames as readonly string[]).includes(setting)) return setting as ThemeName;
  throw new ThemeError(`unknown theme '${String(setting)}' (known: ${themeNames.join(', ')})`);
}

/**
 * Builds the theme; with `enabled` false (NO_COLOR, --no-color) or the `mono` theme every colour
 * is undefined (Ink then prints plain text).
 */
export function createTheme(enabled: boolean, name: ThemeName = 'dark'): Theme {
  const on = enabled && name !== 'mono';
  const c = (colour: string): string | undefined => (on ? colour : undefined);
  if (name === 'light') {
    // Yellow and cyan wash out on a light background: blues, magentas and dark greens instead.
    return {
      enabled: on,
      status: {
        ok: c('green'),
        redirect: c('blue'),
        clientError: c('magenta'),
        serverError: c('red'),
        pending: c('blue'),
        failed: c('red'),
      },
      syntax: {
        key: c('blue'),
        string: c('green'),
        number: c('magenta'),
        boolean: c('red'),
        null: c('gray'),
        punctuation: undefined,
      },
      method: c('magenta'),
      url: c('blue'),
      headerName: c('blue'),
      accent: c('blue'),
      muted: c('gray'),
      border: c('gray'),
      borderFocused: c('blue'),
      selection: { color: c('white'), background: c('blue') },
      match: { color: c('black'), background: c('yellow') },
      error: c('red'),
      warn: c('magenta'),
      diff: { added: c('green'), removed: c('red') },
    };
  }
  return {
    enabled: on,
    status: {
      ok: c('green'),
      redirect: c('cyan'),
      clientError: c('yellow'),
      serverError: c('red'),
      pending: c('yellow'),
      failed: c('red'),
    },
    syntax: {
      key: c('blue'),
      string: c('green'),
      number: c('yellow'),
      boolean: c('magenta'),
      null: c('gray'),
      punctuation: undefined,
    },
    method: c('magenta'),
    url: c('cyan'),
    headerName: c('cyan'),
    accent: c('cyan'),
    muted: c('gray'),
    border: c('gray'),
    borderFocused: c('cyan'),
    selection: { color: c('black'), background: c('cyan') },
    match: { color: c('black'), background: c('yellow') },
    error: c('red'),
    warn: c('yellow'),
    diff: { added: c('green'), removed: c('red') },
  };
}

/** The colour for an HTTP status code by class. */
export function statusColor(theme: Theme, status: number): string | undefined {
  if (status >= 500) return theme.status.serverError;
  if (status >= 400) return theme.status.clientError;
  if (status >= 300) return theme.status.redirect;
  return theme.status.ok;
}

/** True when colour should be used: NO_COLOR (non-empty) or --no-color turn it off. */
export function colorEnabled(env: Record<string, string | undefined>, flag = true): boolean {
  if (!flag) return false;
  return !(env.NO_COLOR !== undefined && env.NO_COLOR !== '');
}

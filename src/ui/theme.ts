/**
 * Semantic colours for the TUI. Components ask for `theme.status.ok` or `theme.syntax.key`,
 * never for a colour name, so NO_COLOR (and future themes) is one switch here.
 */
export interface Theme {
  enabled: boolean;
  status: { ok?: string; redirect?: string; clientError?: string; serverError?: string; pending?: string; failed?: string };
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

/** Builds the theme; with `enabled` false every colour is undefined (Ink then prints plain text). */
export function createTheme(enabled: boolean): Theme {
  const c = (name: string): string | undefined => (enabled ? name : undefined);
  return {
    enabled,
    status: { ok: c('green'), redirect: c('cyan'), clientError: c('yellow'), serverError: c('red'), pending: c('yellow'), failed: c('red') },
    syntax: { key: c('blue'), string: c('green'), number: c('yellow'), boolean: c('magenta'), null: c('gray'), punctuation: undefined },
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

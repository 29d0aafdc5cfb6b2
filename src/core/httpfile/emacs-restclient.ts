/**
 * Files written for Emacs restclient.el, recognised by their mode line (`# -*- restclient -*-` on
 * the first line). restclient.el reads them differently from the `.http` tools:
 *
 * - every line starting with `#` ends the request above it (there is no `###`), so requests
 *   separated only by a `# title` line are separate requests, not one request's body;
 * - `:name = value` lines define variables, and restclient.el replaces the text `:name` in the
 *   requests below them with the value (no `{{…}}`);
 * - `{{…}}`, `@name = value`, `//` lines, `>` handlers, `??` assertions and `?`/`&` lines that
 *   continue a URL or a form mean nothing to it: they are sent as written.
 *
 * dial reads such a file by rewriting it, line for line, into its own format before parsing: `#`
 * lines become `###` lines, variable lines become blank lines and the variables' values are put in
 * place of `:name`. What has no equivalent (Elisp values `:name := (…)`, multi-line `<<` values,
 * `->` hooks) and dial's own constructs, which restclient.el would send as text, are refused with
 * their file:line before anything is sent.
 */
import { DialError } from '../errors.js';

/** The Emacs mode line naming restclient-mode, on the file's first line. */
const MODE_LINE_RE = /^\uFEFF?#.*-\*-(?:.*;)?[ \t]*(?:mode:[ \t]*)?restclient[ \t]*(?:;.*)?-\*-/i;
/** restclient.el's variable line (`restclient-var-regexp`): `:name = value`, `:name := elisp`. */
const VARIABLE_RE = /^:([^:= \t]+)[ \t]*(:?=)[ \t]*(.*)$/;
/** restclient.el's request line: an upper-case method, a space and the URL. */
const REQUEST_RE = /^(?:GET|POST|PUT|DELETE|HEAD|OPTIONS|PATCH)[ \t]+\S/;

/** True when the text opens with restclient.el's Emacs mode line. */
export function isEmacsRestclient(text: string): boolean {
  // Cheap first: a mode line is short, starts with `#` and names the mode.
  const first = text.slice(0, 300);
  if (!/^\uFEFF?#/.test(first) || !/restclient/i.test(first)) return false;
  const end = first.indexOf('\n');
  return end >= 0 ? MODE_LINE_RE.test(first.slice(0, end)) : text.length <= 300 && MODE_LINE_RE.test(text);
}

function refuse(path: string, line: number, excerpt: string, message: string, hint: string): never {
  throw new DialError('E_PARSE', message, { hint, location: { file: path || '<text>', line, col: 1, excerpt } });
}

/**
 * The text of a restclient.el file rewritten into dial's format, with as many lines as the
 * original (so every file:line stays right). Throws E_PARSE at the first construct dial cannot
 * read as restclient.el does.
 */
export function fromEmacsRestclient(text: string, path: string): string {
  const lines = text.split('\n');
  const values = new Map<string, string>();
  // Longest names first, as a name can be the start of another (`:host` and `:hostname`).
  let names: string[] = [];
  const substitute = (line: string): string => {
    let out = line;
    for (const name of names) out = out.split(`:${name}`).join(values.get(name) as string);
    return out;
  };
  let inRequest = false;
  let title = '';
  for (let k = 0; k < lines.length; k++) {
    const raw = lines[k];
    const cr = raw.endsWith('\r') ? '\r' : '';
    const line = cr ? raw.slice(0, -1) : raw;
    const at = k + 1;
    if (line.startsWith('#')) {
      // restclient.el ends a request at every line starting with `#`. The last words of a run of
      // `#` lines (`#` / `# Title` / `#` banners) become the title of the request under it, on the
      // run's last line (not `@…` metadata, which it is not here).
      const words = line.replace(/^#+[ \t]*/, '').replace(/\r$/, '');
      if (words && !words.startsWith('@')) title = words;
      const last = k + 1 >= lines.length || !lines[k + 1].startsWith('#');
      lines[k] = `###${last && title ? ` ${title}` : ''}${cr}`;
      if (last) title = '';
      inRequest = false;
      continue;
    }
    const variable = VARIABLE_RE.exec(line);
    if (variable) {
      const [, name, operator, value] = variable;
      if (operator === ':=')
        refuse(
          path,
          at,
          line,
          `restclient.el variable ':${name}' is an Emacs Lisp expression (:=), which dial does not evaluate`,
          `write its value instead: ':${name} = value'`,
        );
      if (value.trimStart().startsWith('<<'))
        refuse(
          path,
          at,
          line,
          `restclient.el multi-line variable ':${name}' (<<) is not supported`,
          `write the value on the line: ':${name} = value'`,
        );
      if (inRequest)
        refuse(
          path,
          at,
          line,
          `restclient.el variable ':${name}' is defined inside a request (restclient.el sends the line as part of it)`,
          'move the variable above the request, after a `#` line',
        );
      values.set(name, substitute(value.trimEnd()));
      names = [...values.keys()].sort((a, b) => b.length - a.length);
      lines[k] = cr;
      continue;
    }
    if (/^[ \t]*->/.test(line))
      refuse(path, at, line, 'restclient.el `->` response hooks are not supported', 'remove the hook line');
    const own = /^[ \t]*(?:\/\/|@[^\s=]+[ \t]*=|>|\?\?|[&?])/.exec(line) ?? (line.includes('{{') ? ['{{'] : null);
    if (own)
      refuse(
        path,
        at,
        line,
        `'${own[0].trim()}' is sent as written by restclient.el (this file's Emacs mode line names it), but dial would read it`,
        'remove the `-*- restclient -*-` mode line if the file was written for another tool, or write the text restclient.el should send',
      );
    if (REQUEST_RE.test(line)) inRequest = true;
    lines[k] = substitute(line) + cr;
  }
  return lines.join('\n');
}

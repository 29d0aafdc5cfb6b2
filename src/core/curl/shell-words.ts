/**
 * Splits a pasted shell command into words the way Bash would: '…', "…" with its escapes,
 * $'…' ANSI-C strings, backslash escapes and `\` line continuations, `#` comments. The one
 * expansion is a shell variable (`$NAME`, `${NAME}`, unquoted or in "…"), which becomes
 * `{{$processEnv NAME}}` so dial reads it when it sends, as the shell would have; other
 * expansions (`$(…)`, backticks, `$1`, `${x:-y}`) stay literal text and are named.
 * Windows cmd copies (`^` continuations, `^"` quoting, as browsers' "Copy as cURL (cmd)"
 * writes them) are recognised and split by cmd's rules.
 */
import { DialError } from '../errors.js';

/** Where a word came from, for messages. */
export interface ShellWord {
  value: string;
  /** Offset of the word's first character in the source text. */
  offset: number;
  /** A control operator between commands (`;`, `&&`, `||`, `|`, `&`, or a line break), not a word. */
  operator?: boolean;
  /** Shell variables in the word, written as `{{$processEnv NAME}}` in `value`. */
  variables?: string[];
  /** Other shell expansions in the word, kept as literal text (`$(…)`, `` `…` ``, `$1`, `${x:-y}`). */
  kept?: string[];
}

/** How a shell variable is written in a `.http` file (docs/http-format.md, variables). */
export function processEnvReference(name: string): string {
  return `{{$processEnv ${name}}}`;
}

const PROCESS_ENV_REFERENCE = /\{\{\$processEnv ([A-Za-z_][A-Za-z0-9_]*)\}\}/g;

/** Splits text at the `{{$processEnv NAME}}` references the splitter wrote: odd indexes are references. */
export function splitProcessEnvReferences(text: string): string[] {
  return text.split(/(\{\{\$processEnv [A-Za-z_][A-Za-z0-9_]*\}\})/);
}

/** The names of the `{{$processEnv NAME}}` references in text. */
export function processEnvNames(text: string): string[] {
  return [...new Set([...text.matchAll(PROCESS_ENV_REFERENCE)].map((match) => match[1]))];
}

/** Replaces each `{{$processEnv NAME}}` reference in text with what `value(NAME)` returns. */
export function replaceProcessEnvReferences(text: string, value: (name: string) => string): string {
  return text.replace(PROCESS_ENV_REFERENCE, (_, name: string) => value(name));
}

function unterminated(text: string, offset: number, what: string): DialError {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const col = offset - before.lastIndexOf('\n');
  return new DialError('E_IMPORT', `unterminated ${what} in the curl command`, {
    location: { file: '<curl>', line, col, excerpt: text.split('\n')[line - 1] },
    hint: 'copy the whole command, including its closing quote',
  });
}

// $'…' escapes (Bash manual, "ANSI-C Quoting").
function readAnsiC(text: string, start: number): { value: string; end: number } {
  let value = '';
  let i = start;
  while (i < text.length) {
    const char = text[i];
    if (char === "'") return { value, end: i + 1 };
    if (char !== '\\') {
      value += char;
      i++;
      continue;
    }
    const next = text[i + 1];
    i += 2;
    switch (next) {
      case 'n':
        value += '\n';
        break;
      case 't':
        value += '\t';
        break;
      case 'r':
        value += '\r';
        break;
      case 'a':
        value += '\x07';
        break;
      case 'b':
        value += '\b';
        break;
      case 'e':
      case 'E':
        value += '\x1b';
        break;
      case 'f':
        value += '\f';
        break;
      case 'v':
        value += '\v';
        break;
      case '\\':
        value += '\\';
        break;
      case "'":
        value += "'";
        break;
      case '"':
        value += '"';
        break;
      case '?':
        value += '?';
        break;
      case 'x':
      case 'u':
      case 'U': {
        const max = next === 'x' ? 2 : next === 'u' ? 4 : 8;
        const digits = /^[0-9a-fA-F]+/.exec(text.slice(i, i + max))?.[0] ?? '';
        if (!digits) {
          value += `\\${next}`;
          break;
        }
        i += digits.length;
        value += next === 'x' ? String.fromCharCode(parseInt(digits, 16)) : String.fromCodePoint(parseInt(digits, 16));
        break;
      }
      case 'c': {
        const control = text[i] ?? '';
        i++;
        value += String.fromCharCode(control.toUpperCase().charCodeAt(0) & 0x1f);
        break;
      }
      default: {
        if (next !== undefined && /[0-7]/.test(next)) {
          const digits = /^[0-7]{1,3}/.exec(text.slice(i - 1, i + 2))![0];
          i += digits.length - 1;
          value += String.fromCharCode(parseInt(digits, 8));
        } else {
          value += `\\${next ?? ''}`;
        }
      }
    }
  }
  throw unterminated(text, start - 2, "$'…' string");
}

/** What a `$` or `` ` `` (unquoted or inside "…") stands for: its text in the word and where reading goes on. */
interface Dollar {
  value: string;
  end: number;
  variable?: string;
  kept?: string;
}

function shortened(text: string): string {
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

const NAME_AT = /[A-Za-z_][A-Za-z0-9_]*/y;

// `$` at text[i]. Only a variable is converted; Bash would expand the other forms too, but
// dial cannot run commands or know positional parameters, so they stay as written.
function readDollar(text: string, i: number): Dollar {
  const next = text[i + 1] ?? '';
  NAME_AT.lastIndex = i + 1;
  const name = NAME_AT.exec(text)?.[0];
  if (name !== undefined) return { value: processEnvReference(name), end: i + 1 + name.length, variable: name };
  if (next === '{') {
    const close = text.indexOf('}', i + 2);
    const inner = close < 0 ? undefined : text.slice(i + 2, close);
    if (inner !== undefined && /^[A-Za-z_][A-Za-z0-9_]*$/.test(inner))
      return { value: processEnvReference(inner), end: close + 1, variable: inner };
    // Only the `$` is taken here: the rest is read as ordinary text, quotes and all.
    return { value: '$', end: i + 1, kept: shortened(inner === undefined ? '${' : `\${${inner}}`) };
  }
  if (next === '(') {
    const close = text.indexOf(')', i + 2);
    return { value: '$', end: i + 1, kept: close < 0 ? '$(…)' : shortened(text.slice(i, close + 1)) };
  }
  if (next !== '' && /[0-9@*#?$!-]/.test(next)) return { value: `$${next}`, end: i + 2, kept: `$${next}` };
  return { value: '$', end: i + 1 };
}

// `…` at text[i] (command substitution): kept whole as literal text, up to its closing backtick.
function readBacktick(text: string, i: number): Dollar {
  const close = text.indexOf('`', i + 1);
  if (close < 0) return { value: '`', end: i + 1, kept: '`…`' };
  return { value: text.slice(i, close + 1), end: close + 1, kept: shortened(text.slice(i, close + 1)) };
}

/** The word being built while reading Bash text, and the words done so far. */
class BashWords {
  readonly words: ShellWord[] = [];
  private current: string | undefined;
  private offset = 0;
  private variables: string[] = [];
  private kept: string[] = [];

  constructor(private readonly text: string) {}

  get inWord(): boolean {
    return this.current !== undefined;
  }

  /** Starts a word at `at` unless one is under way. */
  start(at: number): void {
    if (this.current === undefined) {
      this.current = '';
      this.offset = at;
    }
  }

  append(text: string): void {
    this.current += text;
  }

  /** Ends the word under way (if any), with the variables and kept expansions met in it. */
  end(): void {
    if (this.current !== undefined) {
      const word: ShellWord = { value: this.current, offset: this.offset };
      if (this.variables.length > 0) word.variables = [...new Set(this.variables)];
      if (this.kept.length > 0) word.kept = [...new Set(this.kept)];
      this.words.push(word);
    }
    this.current = undefined;
    this.variables = [];
    this.kept = [];
  }

  operator(value: string, at: number): void {
    this.end();
    this.words.push({ value, offset: at, operator: true });
  }

  /** Reads `$…` or a backtick at `at` into the word; answers where reading goes on. */
  expansion(at: number): number {
    const found = this.text[at] === '`' ? readBacktick(this.text, at) : readDollar(this.text, at);
    this.current += found.value;
    if (found.variable !== undefined) this.variables.push(found.variable);
    if (found.kept !== undefined) this.kept.push(found.kept);
    return found.end;
  }
}

// A backslash at text[i] outside quotes: a line continuation, or the next character taken literally.
function readBashBackslash(text: string, i: number, words: BashWords): number {
  const next = text[i + 1];
  if (next === '\n') return i + 2;
  if (next === '\r' && text[i + 2] === '\n') return i + 3;
  words.start(i);
  if (next !== undefined) words.append(next);
  return i + 2;
}

// "…" at text[i]: `\` escapes only " \ $ ` and newline; `$` and backticks expand.
function readBashDoubleQuoted(text: string, i: number, words: BashWords): number {
  words.start(i);
  let j = i + 1;
  for (;;) {
    if (j >= text.length) throw unterminated(text, i, 'double-quoted string');
    const inner = text[j];
    if (inner === '"') return j + 1;
    if (inner === '\\' && j + 1 < text.length && '"\\$`\n'.includes(text[j + 1])) {
      if (text[j + 1] !== '\n') words.append(text[j + 1]);
      j += 2;
    } else if (inner === '$' || inner === '`') {
      j = words.expansion(j);
    } else {
      words.append(inner);
      j++;
    }
  }
}

// Quoting at text[i] ('…', $'…', $"…", "…"): read into the word; undefined when text[i] starts none.
function readBashQuoted(text: string, i: number, words: BashWords): number | undefined {
  const char = text[i];
  if (char === "'") {
    words.start(i);
    const close = text.indexOf("'", i + 1);
    if (close < 0) throw unterminated(text, i, 'single-quoted string');
    words.append(text.slice(i + 1, close));
    return close + 1;
  }
  if (char === '$' && text[i + 1] === "'") {
    words.start(i);
    const result = readAnsiC(text, i + 2);
    words.append(result.value);
    return result.end;
  }
  if (char === '$' && text[i + 1] === '"') {
    // $"…" (locale translation) reads as "…".
    words.start(i);
    return i + 1;
  }
  if (char === '"') return readBashDoubleQuoted(text, i, words);
  return undefined;
}

// What separates words at text[i] (blanks, newlines, ; | & && ||, comments); undefined when nothing does.
function readBashSeparator(text: string, i: number, words: BashWords): number | undefined {
  const char = text[i];
  if (char === '\n') {
    words.operator('\n', i);
    return i + 1;
  }
  if (char === ' ' || char === '\t' || char === '\r') {
    words.end();
    return i + 1;
  }
  if (char === ';' || char === '|' || char === '&') {
    const pair = text.slice(i, i + 2);
    const operator = pair === '&&' || pair === '||' ? pair : char;
    words.operator(operator, i);
    return i + operator.length;
  }
  if (char === '#' && !words.inWord) {
    let j = i;
    while (j < text.length && text[j] !== '\n') j++;
    return j;
  }
  return undefined;
}

/** Splits Bash text into words. */
export function splitBashWords(text: string): ShellWord[] {
  const words = new BashWords(text);
  let i = 0;
  while (i < text.length) {
    const char = text[i];
    if (char === '\\') {
      i = readBashBackslash(text, i, words);
      continue;
    }
    const next = readBashSeparator(text, i, words) ?? readBashQuoted(text, i, words);
    if (next !== undefined) {
      i = next;
      continue;
    }
    words.start(i);
    if (char === '$' || char === '`') {
      i = words.expansion(i);
      continue;
    }
    words.append(char);
    i++;
  }
  words.end();
  return words.words;
}

/** Splits a Windows cmd command line (`^` escapes and continuations, "…" quoting, `\"` literal quotes). */
export function splitCmdWords(text: string): ShellWord[] {
  const words: ShellWord[] = [];
  let current: string | undefined;
  let offset = 0;
  let quoted = false;
  const start = (at: number): void => {
    if (current === undefined) {
      current = '';
      offset = at;
    }
  };
  let i = 0;
  while (i < text.length) {
    let char = text[i];
    if (char === '^') {
      const next = text[i + 1];
      if (next === '\n' || (next === '\r' && text[i + 2] === '\n')) {
        i += next === '\n' ? 2 : 3;
        continue;
      }
      // ^X is X for cmd; curl then sees X (a ^" still opens or closes a quoted part).
      i++;
      char = text[i];
      if (char === undefined) break;
    }
    if (char === '\\' && (text[i + 1] === '"' || (text[i + 1] === '^' && text[i + 2] === '"'))) {
      start(i);
      current += '"';
      i += text[i + 1] === '"' ? 2 : 3;
      continue;
    }
    if (char === '"') {
      start(i);
      quoted = !quoted;
      i++;
      continue;
    }
    if (!quoted && (char === ' ' || char === '\t' || char === '\n' || char === '\r')) {
      if (current !== undefined) words.push({ value: current, offset });
      current = undefined;
      i++;
      continue;
    }
    start(i);
    current += char;
    i++;
  }
  if (quoted) throw unterminated(text, offset, 'double-quoted string');
  if (current !== undefined) words.push({ value: current, offset });
  return words;
}

/**
 * Splits a pasted command: Bash, unless it is a Windows cmd copy, recognised by a word that
 * starts with an unquoted `^` (`curl ^"https://…^" ^`), which Bash text never has outside quotes.
 */
export function splitShellWords(text: string): ShellWord[] {
  let bash: ShellWord[] | undefined;
  let bashError: unknown;
  try {
    bash = splitBashWords(text);
  } catch (error) {
    bashError = error;
  }
  if (bash && !bash.some((word) => !word.operator && text[word.offset] === '^')) return bash;
  if (!bash && !text.includes('^')) throw bashError;
  try {
    return splitCmdWords(text);
  } catch (error) {
    throw bashError ?? error;
  }
}

/** One command of a pasted text. */
export interface ShellCommand {
  words: string[];
  /** The control operator after it (`|`, `&&`, …), when one follows. */
  after?: string;
  /** Shell variables its words use (now `{{$processEnv NAME}}` references). */
  variables: string[];
  /** Other shell expansions its words hold, kept as literal text. */
  kept: string[];
}

/**
 * Splits words into commands at control operators. A line break ends a command only when
 * the next line starts a new curl command (a forgotten `\` continuation is forgiven).
 */
export function splitCommands(words: ShellWord[]): ShellCommand[] {
  const commands: ShellCommand[] = [];
  let current: ShellWord[] = [];
  const command = (after?: string): ShellCommand => {
    const found: ShellCommand = {
      words: current.map((word) => word.value),
      variables: [...new Set(current.flatMap((word) => word.variables ?? []))],
      kept: [...new Set(current.flatMap((word) => word.kept ?? []))],
    };
    if (after !== undefined) found.after = after;
    return found;
  };
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (!word.operator) {
      current.push(word);
      continue;
    }
    if (word.value === '\n') {
      const next = words.slice(i + 1).find((candidate) => !candidate.operator);
      if (!next || !/(^|[\\/])curl(\.exe)?$/i.test(next.value) || current.length === 0) continue;
    }
    if (current.length > 0) commands.push(command(word.value === '\n' ? undefined : word.value));
    current = [];
  }
  if (current.length > 0) commands.push(command());
  return commands;
}

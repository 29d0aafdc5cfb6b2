/**
 * The error catalogue (docs/cli.md lists them). Every expected failure is a DialError with a
 * stable code; only src/start.ts turns one into output and an exit code.
 */

/** Exit codes; docs/cli.md has the same table (tests/docs check it). */
export const ExitCode = {
  ok: 0,
  failed: 1,
  usage: 2,
  invalidInput: 3,
  transport: 4,
  interrupted: 130,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** What each exit code means: `dial --help`, README.md and docs/cli.md show these words. */
export const exitCodeMeanings: Record<ExitCodeValue, string> = {
  0: 'success',
  1: 'run: a request failed or errored (an assertion, a test, or a transport error); send --check-status: a 4xx/5xx; send of a gRPC call: a status other than OK',
  2: 'usage error: unknown command or flag, bad argument, dial open without a terminal',
  3: 'invalid input: a .http, env, settings or import file that fails to parse or validate; an unresolved variable',
  4: 'transport or I/O failure: DNS, refused, reset, TLS, proxy, timeout, too many redirects, a file that cannot be read or written',
  130: 'interrupted',
};

/** Stable error codes, each with the exit code it maps to. */
export const errorCatalogue = {
  // usage (2)
  E_USAGE: ExitCode.usage,
  E_NOT_TTY: ExitCode.usage,
  // invalid input (3)
  E_PARSE: ExitCode.invalidInput,
  E_VAR_UNDEFINED: ExitCode.invalidInput,
  E_VAR_CYCLE: ExitCode.invalidInput,
  E_VAR_TOO_LARGE: ExitCode.invalidInput,
  E_HEADER_INJECTION: ExitCode.invalidInput,
  E_CONFIG: ExitCode.invalidInput,
  E_ENV: ExitCode.invalidInput,
  E_INPUT: ExitCode.invalidInput,
  E_NOT_FOUND: ExitCode.invalidInput,
  E_IMPORT: ExitCode.invalidInput,
  E_SCRIPT: ExitCode.invalidInput,
  E_SCHEMA: ExitCode.invalidInput,
  E_EXISTS: ExitCode.invalidInput,
  // transport (4)
  E_CONNREFUSED: ExitCode.transport,
  E_CONNRESET: ExitCode.transport,
  E_TIMEOUT: ExitCode.transport,
  E_TLS: ExitCode.transport,
  E_DNS: ExitCode.transport,
  E_TOO_MANY_REDIRECTS: ExitCode.transport,
  E_PROXY: ExitCode.transport,
  E_NETWORK: ExitCode.transport,
  E_IO: ExitCode.transport,
  E_BODY_TOO_LARGE: ExitCode.transport,
  E_AUTH: ExitCode.transport,
  // outcomes (1)
  E_HTTP_STATUS: ExitCode.failed,
  E_TEST_FAILED: ExitCode.failed,
  // interrupted (130)
  E_CANCELLED: ExitCode.interrupted,
} as const satisfies Record<string, ExitCodeValue>;

export type ErrorCode = keyof typeof errorCatalogue;

/** Where in a file an error points (1-based line and column). */
export interface SourceLocation {
  file: string;
  line: number;
  col?: number;
  /** The offending source line, shown under the message. */
  excerpt?: string;
}

export interface DialErrorOptions {
  hint?: string;
  location?: SourceLocation;
  cause?: unknown;
  /** Overrides the catalogue's exit code (rarely needed). */
  exitCode?: ExitCodeValue;
}

/** An expected failure: printed as `error[CODE] file:line: message` plus a hint, never as a stack trace. */
export class DialError extends Error {
  readonly code: ErrorCode;
  readonly exitCode: ExitCodeValue;
  readonly hint?: string;
  readonly location?: SourceLocation;

  constructor(code: ErrorCode, message: string, options: DialErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DialError';
    this.code = code;
    this.exitCode = options.exitCode ?? errorCatalogue[code];
    this.hint = options.hint;
    this.location = options.location;
  }
}

/** True for a DialError, also across module copies (bundled chunks). */
export function isDialError(value: unknown): value is DialError {
  return value instanceof DialError || (value instanceof Error && value.name === 'DialError' && 'code' in value);
}

/** The one-line-plus-hint text a user sees for an error; `verbose` adds the cause chain. */
export function formatError(error: unknown, verbose = false): string {
  if (!isDialError(error)) {
    const text = error instanceof Error ? (verbose ? (error.stack ?? error.message) : error.message) : String(error);
    return `error: ${text}`;
  }
  const where = error.location
    ? ` ${error.location.file}:${error.location.line}${error.location.col ? `:${error.location.col}` : ''}`
    : '';
  const lines = [`error[${error.code}]${where}: ${error.message}`];
  if (error.location?.excerpt !== undefined) {
    lines.push(`  | ${error.location.excerpt}`);
    if (error.location.col) lines.push(`  | ${' '.repeat(error.location.col - 1)}^`);
  }
  if (error.hint) lines.push(`hint: ${error.hint}`);
  if (verbose) {
    let cause: unknown = error.cause;
    while (cause) {
      lines.push(`caused by: ${cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause)}`);
      cause = cause instanceof Error ? cause.cause : undefined;
    }
  }
  return lines.join('\n');
}

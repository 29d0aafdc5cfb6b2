/**
 * What both ways of preparing a `dial send` share: the outside world it talks to, a request
 * ready to go, and the history entry it writes. Apart from ./run-send.ts so that
 * ./file-target.ts (the .http path, which dist/send-url.cjs does not carry) can use them too.
 */
import type { Readable } from 'node:stream';
import type { CookieJar, Exchange, HttpRequest, SendOptions, TlsOptions } from '../../core/http/types.js';
import type { HttpFile, RequestNode } from '../../core/httpfile/types.js';
import type { CurlCommandOptions } from '../../core/export/from-http.js';
import type { RequestScripts } from '../../core/workspace/send-target.js';
import type { DigestCredentials } from '../../core/send/digest.js';
import { historyPath, type Settings } from '../../core/settings/index.js';
import { appendHistory, toHistoryEntry } from '../../core/history/index.js';
import type { SendAuth } from './options.js';
import type { Out } from './printer.js';

/** The outside world `runSend` talks to (the command passes process streams). */
export interface SendIo {
  stdout: Out;
  stderr: Out;
  /** Piped stdin, or undefined when stdin is a terminal / not data. */
  stdin?: Readable;
  /** Byte size when stdin is a regular file. */
  stdinSize?: number;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Colour on stdout / stderr (NO_COLOR, --no-color decided by the command). */
  color: boolean;
  colorErr: boolean;
  verbose: boolean;
  quiet: boolean;
  cwd: string;
  env: Record<string, string | undefined>;
  userAgent: string;
  /** Aborted on Ctrl+C: the exchange stops with E_CANCELLED (exit 130). */
  signal?: AbortSignal;
  pick?: (requests: RequestNode[]) => Promise<RequestNode>;
  prompt?: (name: string, description?: string) => Promise<string>;
  /** stdin even when it is a terminal: `dial send ws://…` reads the messages a person types. */
  openStdin?: () => Readable;
  /** Whether stdin is a terminal: asked only when it matters (it may load node:tty). */
  stdinIsTTY?: () => Promise<boolean>;
}

/** Transport options: the settings, overridden by the command's flags. */
export interface Transport {
  verify: boolean;
  verifySource: string;
  tls: TlsOptions;
  timeoutMs?: number;
  maxRedirects: number;
  proxy?: string;
}

/** A request ready to go, with what printing and history need to know about it. */
export interface PreparedSend {
  request: HttpRequest;
  /** Send options the request's metadata sets (@timeout, @no-redirect…). */
  overrides: Partial<SendOptions>;
  /** Values masked in history. */
  secretValues: string[];
  /** Secret values the request used (# @secret, private env, .env): masked in everything printed. */
  printSecrets: string[];
  /** References left as written (--curl, --offline). */
  keptTexts: string[];
  workspace?: string;
  requestId?: string;
  digest?: DigestCredentials;
  /** kulala's `Authorization: NTLM user:password`: sent with the NTLM handshake (core/send/ntlm.ts). */
  ntlm?: { username: string; password: string };
  /** The .http request the command is printed from (--curl). */
  source?: CurlCommandOptions['source'];
  /** The request's scripts (a .http request with scripts): its handlers run once the response is in. */
  scripts?: RequestScripts;
  file?: HttpFile;
  node?: RequestNode;
  /** A GraphQL request: `errors` in its answer are warned about. */
  graphql?: boolean;
  /** The .http request's line, for errors found only while sending (a gRPC schema mismatch). */
  requestLine?: { file: string; line: number };
  follow: boolean;
  /** The saved cookie jar (a .http request) or the session's cookies (--session). */
  cookieJar?: CookieJar;
  /** Credentials a --session kept, used when -a is not given. */
  sessionAuth?: SendAuth;
  /** Saves the cookie jar or the session once the exchange is over (not for --curl / --offline). */
  saveState?: () => void;
}

/** One history entry (none when history is off); a failure to write is a warning. */
export function appendToHistory(
  settings: Settings,
  io: SendIo,
  warn: (message: string) => void,
  exchange: Exchange,
  entry: Parameters<typeof toHistoryEntry>[1],
): void {
  if (settings.historyLimit <= 0) return;
  try {
    appendHistory(toHistoryEntry(exchange, entry), { path: historyPath(io.env), limit: settings.historyLimit });
  } catch (error) {
    warn(`could not record history: ${(error as Error).message}`);
  }
}

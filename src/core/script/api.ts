/**
 * Types of the script API and the host-side `response` object. The objects scripts see are
 * built inside the engine by prelude.ts; this file keeps what the rest of dial shares with it.
 */
import type { ResponseView } from '../assert/response-view.js';

/** Thrown when a script touches an API dial does not provide. */
export class UnsupportedApiError extends Error {
  constructor(readonly api: string) {
    super(
      `'${api}' is not supported in dial scripts yet (supported: client.test/assert/log/global, request.variables/environment, response.status/headers/contentType/body)`,
    );
    this.name = 'UnsupportedApiError';
  }
}

export interface ScriptTestResult {
  name: string;
  passed: boolean;
  message?: string;
}

/** What the API reads and writes outside the script. */
export interface ScriptEnvironment {
  /** Run-wide globals (`client.global`), shared with the session's variables. */
  globals: Map<string, unknown>;
  /**
   * `client.global.headers` (JetBrains): headers, by lower-case name, that every request sent
   * after the call gets unless it writes that header itself (a pre-request script's call already
   * counts for its own request). Shared like `globals`; undefined where they cannot be taken.
   */
  globalHeaders?: Map<string, [string, string]>;
  /** `request.variables` (pre-request scripts set them for this request's resolution). */
  requestVariables: Map<string, string>;
  /**
   * Lists given to `request.variables.set(name, [...])` in a pre-request script (JetBrains: the
   * request goes once per item; httpfile/list-iteration.ts); handlers read them. Undefined where a list cannot
   * be taken (`dial send`).
   */
  requestLists?: Map<string, unknown[]>;
  /** `request.iteration()`: the 0-based pass of a request sent once per list item. */
  iteration?: number;
  /**
   * kulala's `request.skip(message?)` / `request.abort(message?)` (pre-request scripts) and
   * `request.replay()` (handlers), recorded for the runner; undefined where they cannot be taken (`dial send`).
   */
  control?: RequestControl;
  /**
   * kulala's `request.url_raw = …` / `request.body_raw = …` in a Lua pre-request script: the
   * request's URL or body template replaced for this send (its `{{variables}}` filled in after).
   * Undefined where they cannot be taken (`dial send`, handlers).
   */
  requestOverrides?: RequestOverrides;
  /**
   * kulala's `client.responses["name"]` (Lua): the named request's last response in this run,
   * undefined when it has not run (never sent for the script). Absent where not taken (`dial send`).
   */
  recordedResponse?: (name: string) => Promise<ResponseView | undefined>;
  /**
   * The process environment, for rest.nvim's Lua `client.global.get(name)` / `vim.env.NAME` (Neovim's
   * environment starts as it): read for the names a script writes literally. Default process.env.
   */
  processEnv?: Record<string, string | undefined>;
  /** Looks a variable up in the selected environment (undefined when absent). */
  environment: (name: string) => string | undefined;
  request?: ScriptRequest;
  response?: ResponseView;
  /** The request as sent for `response` (kulala's `response.url` / `response.method`); absent where not known. */
  sent?: { method: string; url: string };
}

/** The request's URL and body as a kulala Lua pre-request script rewrote them (templates). */
export interface RequestOverrides {
  url?: string;
  body?: string;
}

/** What a script asked of its request's send (kulala). A message is '' when none was given. */
export interface RequestControl {
  skip?: string;
  abort?: string;
  replay?: boolean;
}

/** The request as written, for `request.url`, `request.headers` and `request.body` (JetBrains). */
export interface ScriptRequest {
  method: string;
  url: string;
  headers?: Array<[string, string]>;
  /** A GraphQL request: its body is sent as a JSON payload built from the text. */
  graphql?: boolean;
  /** The body as written; `file` for a `< ./file` body (not read for scripts). */
  body?: { kind: 'inline'; text: string } | { kind: 'file' };
  /**
   * Fills in the `{{variables}}` it can, leaving the others as written (`tryGetSubstituted`); given
   * the request variables the script has set so far. Asked only of scripts that call it.
   */
  substitute?: (text: string, requestVariables: Map<string, string>) => Promise<string>;
}

/** Collected while a script runs. */
export interface ScriptRecorder {
  tests: ScriptTestResult[];
  logs: string[];
  pending: Array<Promise<void>>;
}

/** The `response` object of handler scripts and `?? js` assertions. */
export function createResponseApi(view: ResponseView): Record<string, unknown> {
  const api = {
    status: view.status,
    statusCode: view.status,
    statusText: view.statusText,
    headers: {
      valueOf: (name: string) => view.header(String(name)) ?? null,
      valuesOf: (name: string) => view.headerValues(String(name)),
    },
    contentType: { mimeType: view.mimeType, charset: view.charset || 'UTF-8' },
    duration: view.durationMs,
  };
  responseViews.set(api, view);
  Object.defineProperty(api, 'body', { enumerable: true, get: responseBody });
  // httpyac names, so `?? js response.parsedBody.x` files run unchanged.
  Object.defineProperty(api, 'parsedBody', { enumerable: false, get: responseJson });
  return api;
}

// Shared getters (the view found through a WeakMap): a getter closure per object would give
// every response object its own hidden class, which keeps the object (and its view and body)
// alive until a full GC.
const responseViews = new WeakMap<object, ResponseView>();
function responseBody(this: object): unknown {
  return responseViews.get(this)?.body();
}
function responseJson(this: object): unknown {
  return responseViews.get(this)?.json();
}

/** The request a script sees (`request.url`, `request.headers`, `request.body`), as written in the file. */
export function scriptRequest(
  node: {
    method: string;
    url: string;
    headers: ReadonlyArray<{ name: string; value: string }>;
    body?: { kind: string; text?: string };
    graphql?: boolean;
  },
  substitute?: ScriptRequest['substitute'],
): ScriptRequest {
  const request: ScriptRequest = {
    method: node.method,
    url: node.url,
    headers: node.headers.map((header) => [header.name, header.value]),
  };
  if (node.body)
    request.body = node.body.kind === 'inline' ? { kind: 'inline', text: node.body.text ?? '' } : { kind: 'file' };
  if (substitute) request.substitute = substitute;
  if (node.graphql) request.graphql = true;
  return request;
}

/**
 * JetBrains' `tryGetSubstituted`: each `{{…}}` that resolves is filled in, the others stay as
 * written (`resolve` resolves one placeholder, throwing when it cannot).
 */
export async function trySubstitute(text: string, resolve: (template: string) => Promise<string>): Promise<string> {
  if (!text.includes('{{')) return text;
  let out = '';
  let last = 0;
  for (const match of text.matchAll(/\{\{[^{}\n]*\}\}/g)) {
    out += text.slice(last, match.index);
    try {
      out += await resolve(match[0]);
    } catch {
      out += match[0];
    }
    last = match.index + match[0].length;
  }
  return out + text.slice(last);
}

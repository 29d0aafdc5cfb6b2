/**
 * The JetBrains HTTP Client script API subset (docs/http-format.md, scripts): `client`,
 * `request` and `response` objects handed to a script. Host objects, built per call.
 */
import type { ResponseView } from '../assert/response-view.js';

/** A failed `client.assert`: inside `client.test` it fails that test, outside it fails a check named by its message. */
export class ScriptAssertionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScriptAssertionError';
  }
}

/** Thrown when a script touches an API dial does not provide. */
export class UnsupportedApiError extends Error {
  constructor(readonly api: string) {
    super(`'${api}' is not supported in dial scripts yet (supported: client.test/assert/log/global, request.variables/environment, response.status/headers/contentType/body)`);
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
  /** `request.variables` (pre-request scripts set them for this request's resolution). */
  requestVariables: Map<string, string>;
  /** Looks a variable up in the selected environment (undefined when absent). */
  environment: (name: string) => string | undefined;
  request?: { method: string; url: string };
  response?: ResponseView;
}

/** Collected while a script runs. */
export interface ScriptRecorder {
  tests: ScriptTestResult[];
  logs: string[];
  pending: Array<Promise<void>>;
}

function format(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function errorMessage(error: unknown): string {
  if (error && typeof error === 'object' && 'message' in error) return String((error as { message: unknown }).message);
  return String(error);
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
// alive until a full GC. The same holds for the unsupported-API getters below.
const responseViews = new WeakMap<object, ResponseView>();
function responseBody(this: object): unknown {
  return responseViews.get(this)?.body();
}
function responseJson(this: object): unknown {
  return responseViews.get(this)?.json();
}
const unsupportedGetters = new Map<string, () => never>();
function unsupportedGetter(api: string): () => never {
  let getter = unsupportedGetters.get(api);
  if (!getter) {
    getter = () => {
      throw new UnsupportedApiError(api);
    };
    unsupportedGetters.set(api, getter);
  }
  return getter;
}

/** Builds the `client` and `request` objects of one script run. */
export function createScriptApi(env: ScriptEnvironment, recorder: ScriptRecorder): { client: Record<string, unknown>; request: Record<string, unknown> } {
  const log = (...args: unknown[]) => {
    if (recorder.logs.length < 200) recorder.logs.push(args.map(format).join(' ').slice(0, 2000));
  };
  const client: Record<string, unknown> = {
    test(name: unknown, fn: unknown) {
      const testName = String(name);
      if (typeof fn !== 'function') {
        recorder.tests.push({ name: testName, passed: false, message: 'client.test needs a function' });
        return;
      }
      try {
        const result = (fn as () => unknown)();
        if (result && typeof (result as Promise<unknown>).then === 'function') {
          recorder.pending.push(
            (result as Promise<unknown>).then(
              () => void recorder.tests.push({ name: testName, passed: true }),
              (error: unknown) => void recorder.tests.push({ name: testName, passed: false, message: errorMessage(error) }),
            ),
          );
          return;
        }
        recorder.tests.push({ name: testName, passed: true });
      } catch (error) {
        if (error instanceof UnsupportedApiError) throw error;
        recorder.tests.push({ name: testName, passed: false, message: errorMessage(error) });
      }
    },
    assert(condition: unknown, message?: unknown) {
      if (!condition) throw new ScriptAssertionError(message === undefined ? 'assertion failed' : String(message));
    },
    log,
    global: {
      set: (name: unknown, value: unknown) => void env.globals.set(String(name), value),
      get: (name: unknown) => env.globals.get(String(name)) ?? null,
      clear: (name: unknown) => void env.globals.delete(String(name)),
      clearAll: () => env.globals.clear(),
      isEmpty: () => env.globals.size === 0,
    },
    exit: () => {
      throw new UnsupportedApiError('client.exit');
    },
  };
  for (const name of ['websocket', 'oauth2']) {
    Object.defineProperty(client, name, { get: unsupportedGetter(`client.${name}`) });
  }
  const request: Record<string, unknown> = {
    method: env.request?.method,
    url: env.request?.url,
    variables: {
      set: (name: unknown, value: unknown) => void env.requestVariables.set(String(name), typeof value === 'string' ? value : format(value)),
      get: (name: unknown) => env.requestVariables.get(String(name)) ?? null,
    },
    environment: {
      get: (name: unknown) => env.environment(String(name)) ?? null,
    },
  };
  return { client, request };
}

/**
 * The one door between a script and dial: `host(op, argsJson)` answers JSON text. It reads and
 * writes only the run's variables, the response being checked and the test record; hashing is
 * done here with node:crypto on plain strings. Nothing it answers is a host object.
 */
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { JSONPath } from 'jsonpath-plus';
import type { HostState } from './engine-types.js';
import { isDefinitePath } from '../assert/json-path.js';

const ALGORITHMS = new Set(['md5', 'sha1', 'sha256', 'sha384', 'sha512']);
const ENCODINGS = new Set(['utf8', 'hex', 'base64']);
const MAX_LOGS = 200;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const MAX_LOG_LENGTH = 2000;

interface DigestParts {
  algorithm: string;
  data: Array<[string, string]>;
  key: [string, string] | null;
}

function bytes(part: [string, string]): Buffer {
  const [encoding, text] = part;
  if (!ENCODINGS.has(encoding)) throw new Error(`unknown encoding '${encoding}' (use utf8, hex or base64)`);
  return Buffer.from(String(text), encoding as BufferEncoding);
}

/** The sandbox's `Buffer` keeps its bytes as base64 text; this converts text between encodings (Node's Buffer names). */
const BUFFER_ENCODINGS = new Set([
  'utf8',
  'utf-8',
  'hex',
  'base64',
  'base64url',
  'latin1',
  'binary',
  'ascii',
  'utf16le',
  'ucs2',
]);
function recode(text: string, from: string, to: string): string {
  for (const encoding of [from, to])
    if (!BUFFER_ENCODINGS.has(encoding.toLowerCase()))
      throw new Error(`Buffer encoding '${encoding}' is not supported (use ${[...BUFFER_ENCODINGS].join(', ')})`);
  return Buffer.from(text, from.toLowerCase() as BufferEncoding).toString(to.toLowerCase() as BufferEncoding);
}

function digest(parts: DigestParts): { hex: string; base64: string; base64url: string } {
  const algorithm = String(parts.algorithm).toLowerCase();
  if (!ALGORITHMS.has(algorithm))
    throw new Error(`unknown hash '${parts.algorithm}' (supported: ${[...ALGORITHMS].join(', ')})`);
  const hash = parts.key ? createHmac(algorithm, bytes(parts.key)) : createHash(algorithm);
  for (const part of parts.data) hash.update(bytes(part));
  const out = hash.digest();
  return { hex: out.toString('hex'), base64: out.toString('base64'), base64url: out.toString('base64url') };
}

/** Parses a JSON value the script handed over; a value that was not JSON comes back as text. */
function jsonSafe(value: unknown): unknown {
  return value === undefined ? null : value;
}

/**
 * JetBrains' `jsonPath(value, path)`: a path that can match one value only gives that value (null
 * when absent), any other path the list of matches (the way Jayway's JsonPath, which the JetBrains
 * client is built on, answers).
 */
function jsonPath(value: unknown, path: string): unknown {
  const data = typeof value === 'string' ? parseJson(value) : value;
  let results: unknown[];
  try {
    results = JSONPath({ path, json: data as object, wrap: true, eval: 'safe' }) as unknown[];
  } catch (error) {
    throw new Error(`jsonPath: invalid JSONPath '${path}': ${error instanceof Error ? error.message : String(error)}`);
  }
  if (isDefinitePath(path)) return results?.[0] ?? null;
  return results ?? [];
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error('jsonPath: the value is text that is not JSON');
  }
}

const URL_FIELDS = [
  'href',
  'protocol',
  'username',
  'password',
  'host',
  'hostname',
  'port',
  'pathname',
  'search',
  'hash',
  'origin',
] as const;
const URL_SETTABLE = new Set<string>(URL_FIELDS.filter((field) => field !== 'origin'));

/** The sandbox's `URL` (prelude): the parts of a WHATWG URL, parsed by Node (a pure function of the text). */
function urlParts(url: URL): Record<string, string> {
  return Object.fromEntries(URL_FIELDS.map((field) => [field, url[field]]));
}

const URL_OPS = new Set(['url', 'urlSet', 'params', 'paramsText']);

/** The sandbox's URL and URLSearchParams (prelude): pure functions of their text. */
function urlAnswer(op: string, args: unknown[]): unknown {
  if (op === 'url') return urlParts(new URL(String(args[0]), args[1] === null ? undefined : String(args[1])));
  if (op === 'params') return [...new URLSearchParams(String(args[0]))];
  if (op === 'paramsText') return new URLSearchParams(args[0] as string[][]).toString();
  const url = new URL(String(args[0]));
  const field = String(args[1]);
  if (!URL_SETTABLE.has(field)) throw new Error(`URL: ${field} cannot be set`);
  (url as unknown as Record<string, string>)[field] = String(args[2]);
  return urlParts(url);
}

function answer(state: HostState, op: string, args: unknown[]): unknown {
  if (URL_OPS.has(op)) return urlAnswer(op, args);
  const { env, recorder } = state;
  const name = String(args[0]);
  switch (op) {
    case 'log':
      if (recorder.logs.length < MAX_LOGS) recorder.logs.push(String(args[0]).slice(0, MAX_LOG_LENGTH));
      return null;
    case 'test':
      recorder.tests.push(
        args[2] === null || args[2] === undefined
          ? { name, passed: Boolean(args[1]) }
          : { name, passed: Boolean(args[1]), message: String(args[2]) },
      );
      return null;
    case 'timeZoneName':
      // Node's Date#toString names the zone as Intl's long name does.
      return (
        new Intl.DateTimeFormat('en-US', { timeZoneName: 'long' })
          .formatToParts(new Date(Number(args[0])))
          .find((part) => part.type === 'timeZoneName')?.value ?? null
      );
    case 'globalSet':
      env.globals.set(name, args[1]);
      return null;
    case 'globalGet':
      return jsonSafe(env.globals.get(name));
    case 'globalClear':
      env.globals.delete(name);
      return null;
    case 'globalClearAll':
      env.globals.clear();
      return null;
    case 'globalIsEmpty':
      return env.globals.size === 0;
    case 'globalHeaderSet':
    case 'globalHeaderClear': {
      if (!env.globalHeaders) throw new Error('client.global.headers is not available here');
      if (!HEADER_NAME.test(name)) throw new Error(`client.global.headers: '${name}' is not a valid header name`);
      if (op === 'globalHeaderClear') env.globalHeaders.delete(name.toLowerCase());
      else {
        const value = String(args[1]);
        if (/[\r\n]/.test(value))
          throw new Error(`client.global.headers.set('${name}', …): the value holds a line break`);
        env.globalHeaders.set(name.toLowerCase(), [name, value]);
      }
      return null;
    }
    case 'checkSubstituted': {
      // Precomputed before the script ran: a placeholder left for a variable the script has set
      // since would be sent differently than it reads here.
      for (const match of String(args[0]).matchAll(/\{\{\s*([^{}\s]+)\s*\}\}/g))
        if (env.requestVariables.has(match[1]))
          throw new Error(
            `tryGetSubstituted() after request.variables.set('${match[1]}') in the same script is not supported (dial fills the variables in before the script runs)`,
          );
      return null;
    }
    case 'varSet':
      env.requestVariables.set(name, String(args[1]));
      env.requestLists?.delete(name);
      return null;
    case 'varSetList':
      if (!env.requestLists || env.response)
        throw new Error('request.variables.set with a list is only taken in a pre-request script of dial run');
      if (!Array.isArray(args[1]) || args[1].length === 0)
        throw new Error(
          `request.variables.set('${name}', []) : the list is empty, so the request would not be sent at all`,
        );
      env.requestLists.set(name, args[1]);
      env.requestVariables.delete(name);
      return null;
    case 'varGet':
      return jsonSafe(env.requestLists?.get(name) ?? env.requestVariables.get(name));
    // JetBrains' request.variables.clear(name) / clearAll() / isEmpty(): the request's own variables.
    case 'varClear':
      env.requestVariables.delete(name);
      env.requestLists?.delete(name);
      return null;
    case 'varClearAll':
      env.requestVariables.clear();
      env.requestLists?.clear();
      return null;
    case 'varIsEmpty':
      return env.requestVariables.size === 0 && (env.requestLists?.size ?? 0) === 0;
    case 'iteration':
      return env.iteration ?? 0;
    case 'requestSkip':
    case 'requestAbort': {
      const what = op === 'requestSkip' ? 'request.skip()' : 'request.abort()';
      if (!env.control) throw new Error(`${what} is taken by dial run only`);
      if (env.response) throw new Error(`${what} is for pre-request scripts (the request was already sent)`);
      env.control[op === 'requestSkip' ? 'skip' : 'abort'] = args[0] === null || args[0] === undefined ? '' : name;
      return null;
    }
    case 'requestReplay':
      if (!env.control) throw new Error('request.replay() is taken by dial run only');
      if (!env.response) throw new Error('request.replay() is for response handlers (> {% … %})');
      env.control.replay = true;
      return null;
    case 'envGet':
      return jsonSafe(env.environment(name));
    case 'body':
      return jsonSafe(env.response?.body());
    case 'json':
      return jsonSafe(env.response?.json());
    case 'digest':
      return digest(args[0] as DigestParts);
    case 'jsonPath':
      return jsonPath(args[0], String(args[1]));
    case 'uuid':
      return randomUUID();
    case 'randomBytes': {
      const n = Number(args[0]);
      if (!Number.isInteger(n) || n < 0 || n > 65536)
        throw new Error(`crypto.randomBytes(${String(args[0])}): a size from 0 to 65536`);
      return randomBytes(n).toString('base64');
    }
    case 'recode':
      return recode(String(args[0]), String(args[1]), String(args[2]));
    default:
      throw new Error(`unknown host call '${op}'`);
  }
}

/** Answers one call from the script: `{"value": …}`, or `{"__hostError": message}` (the prelude throws it). */
export function hostCall(state: HostState | undefined, op: string, argsJson: string): string {
  if (!state) return JSON.stringify({ __hostError: 'no script is running' });
  try {
    const args = JSON.parse(argsJson) as unknown[];
    return JSON.stringify({ value: answer(state, op, Array.isArray(args) ? args : []) }) ?? '{"value":null}';
  } catch (error) {
    return JSON.stringify({ __hostError: error instanceof Error ? error.message : String(error) });
  }
}

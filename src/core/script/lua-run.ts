/**
 * One kulala Lua script in dial's run: the data its `request`, `response`, `client.global` and
 * `request.environment` are built from, gathered before it runs (lua-engine.ts runs it in a worker
 * with no way back into dial), then what it wrote applied to the run as the JavaScript scripts'
 * host calls would: tests, logs, global and request variables, skip and replay.
 */
import type { HttpFile, ScriptNode } from '../httpfile/types.js';
import { DialError } from '../errors.js';
import type { ScriptEnvironment } from './api.js';
import type { ResponseView } from '../assert/response-view.js';
import { runLua, type LuaOutcome } from './lua-engine.js';
import { luaEnvironmentNames } from '../httpfile/scripts.js';

interface LoadedScript {
  code: string;
  filename: string;
  lineOffset: number;
}

const MENTIONS_SENT_FORM = /\brequest\s*\.\s*(?:url|headers|body)\b(?!_)/;

/** Every Set-Cookie of the response, by name (kulala's `response.cookies["name"].value`). */
function cookiesOf(values: string[]): Record<string, Record<string, string | boolean>> {
  const cookies: Record<string, Record<string, string | boolean>> = {};
  for (const header of values) {
    const [pair, ...attributes] = header.split(';');
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const name = pair.slice(0, eq).trim();
    const cookie: Record<string, string | boolean> = { name, value: pair.slice(eq + 1).trim() };
    for (const attribute of attributes) {
      const at = attribute.indexOf('=');
      const key = (at < 0 ? attribute : attribute.slice(0, at)).trim().toLowerCase();
      const value = at < 0 ? true : attribute.slice(at + 1).trim();
      if (key === 'domain' || key === 'path' || key === 'expires' || key === 'secure') cookie[key] = value;
      else if (key === 'httponly') cookie.http_only = true;
    }
    cookies[name] = cookie;
  }
  return cookies;
}

async function requestData(env: ScriptEnvironment, code: string): Promise<Record<string, unknown>> {
  const request = env.request;
  if (!request) return {};
  const headersRaw: Record<string, string> = {};
  for (const [name, value] of request.headers ?? []) headersRaw[name] = value;
  const data: Record<string, unknown> = { method: request.method, url_raw: request.url, headers_raw: headersRaw };
  // A `< ./file` body is not read for scripts: its fields stay out (reading them is an error in the script).
  if (request.body?.kind === 'inline') data.body_raw = request.body.text;
  else if (!request.body) data.body_raw = null;
  if (request.substitute && MENTIONS_SENT_FORM.test(code)) {
    const substitute = (text: string) => request.substitute!(text, env.requestVariables);
    data.url = await substitute(request.url);
    const headers: Record<string, string> = {};
    for (const [name, value] of request.headers ?? []) headers[name] = await substitute(value);
    data.headers = headers;
    if (request.body?.kind === 'inline') data.body = await substitute(request.body.text);
    else if (!request.body) data.body = null;
  }
  return data;
}

const RESPONSES = /\bclient\s*\.\s*responses\s*(?:\[\s*(["'])([^"'\n]+)\1\s*\]|\.\s*([A-Za-z_]\w*))/g;

/** kulala's `client.responses["name"]`, for the names the script writes: each response, or null when that request has not run. */
async function responsesData(
  env: ScriptEnvironment,
  code: string,
  at: { file: string; line: number },
): Promise<Record<string, unknown> | null> {
  if (!env.recordedResponse || !code.includes('responses')) return null;
  const responses: Record<string, unknown> = {};
  for (const match of code.matchAll(RESPONSES)) {
    const name = match[2] ?? match[3];
    if (name in responses) continue;
    let view: ResponseView | undefined;
    try {
      view = await env.recordedResponse(name);
    } catch {
      throw new DialError('E_SCRIPT', `client.responses["${name}"]: that response's body is no longer kept`, {
        location: at,
      });
    }
    responses[name] = view ? responseData(view) : null;
  }
  return responses;
}

function responseData(view: ResponseView | undefined): Record<string, unknown> | null {
  if (!view) return null;
  const table: Record<string, string> = {};
  let raw = '';
  for (const [name, value] of view.headers) {
    table[name] = table[name] === undefined ? value : `${table[name]}, ${value}`;
    raw += `${name}: ${value}\r\n`;
  }
  return {
    status: view.status,
    body: view.text(),
    headers: raw,
    headers_tbl: table,
    cookies: cookiesOf(view.headerValues('set-cookie')),
  };
}

/** Runs a Lua script and applies what it wrote; E_SCRIPT at its line when it breaks or hits a limit. */
export async function runLuaScript(
  script: LoadedScript,
  node: ScriptNode,
  file: HttpFile,
  env: ScriptEnvironment,
  limits: { timeoutMs: number; memoryBytes: number },
): Promise<{ tests: LuaOutcome['tests']; logs: string[] }> {
  const values: Record<string, string | null> = {};
  const known: Record<string, boolean> = {};
  for (const name of luaEnvironmentNames(script.code)) {
    known[name] = true;
    values[name] = env.requestVariables.get(name) ?? env.environment(name) ?? null;
  }
  const globals: Record<string, unknown> = {};
  for (const [name, value] of env.globals) if (value !== undefined) globals[name] = value;
  const at = { file: script.filename, line: node.kind === 'inline' ? script.lineOffset + 1 : node.span.line };
  const usesFs = script.code.includes('kulala.utils.fs');
  const fs = usesFs ? await import('./lua-fs.js') : undefined;
  const data = {
    request: await requestData(env, script.code),
    ...(fs ? { files: fs.readLuaFiles(script.code, file.path, at) } : {}),
    response: responseData(env.response),
    responses: await responsesData(env, script.code, {
      file: script.filename,
      line: node.kind === 'inline' ? script.lineOffset + 1 : node.span.line,
    }),
    env: { values, known },
    globals,
    iteration: env.iteration ?? 1,
    control: env.control !== undefined,
    overridable: env.requestOverrides !== undefined,
    lineOffset: script.lineOffset,
  };
  const outcome = await runLua(script.code, script.filename, data, limits);
  // What the script did before it stopped counts, as a JavaScript script's calls do.
  for (const [name, value] of Object.entries(outcome.vars)) env.requestVariables.set(name, value);
  if (outcome.globals.cleared) env.globals.clear();
  for (const name of outcome.globals.removed) env.globals.delete(name);
  for (const [name, value] of Object.entries(outcome.globals.set)) env.globals.set(name, value);
  if (env.requestOverrides) {
    if (typeof outcome.request.url === 'string') env.requestOverrides.url = outcome.request.url;
    if (typeof outcome.request.body === 'string') env.requestOverrides.body = outcome.request.body;
  }
  if (env.control) {
    if (outcome.control.skip !== undefined) env.control.skip = String(outcome.control.skip);
    if (outcome.control.replay) env.control.replay = true;
  }
  if (outcome.files.length > 0) {
    if (!fs)
      throw new DialError('E_SCRIPT', 'kulala.utils.fs: a write from a script that does not load it', { location: at });
    fs.applyLuaWrites(outcome.files, file.path, at);
  }
  if (outcome.error) throw luaError(outcome.error, script, node, file, limits);
  return { tests: outcome.tests, logs: outcome.logs };
}

function luaError(
  error: NonNullable<LuaOutcome['error']>,
  script: LoadedScript,
  node: ScriptNode,
  file: HttpFile,
  limits: { timeoutMs: number; memoryBytes: number },
): DialError {
  const escaped = script.filename.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const at = new RegExp(`^${escaped}:(\\d+): `).exec(error.message);
  const fallback = node.kind === 'inline' ? script.lineOffset + 1 : node.span.line;
  const location = at
    ? { file: script.filename, line: Number(at[1]) }
    : { file: node.kind === 'inline' ? script.filename : file.path, line: fallback };
  const message = at ? error.message.slice(at[0].length) : error.message;
  switch (error.kind) {
    case 'timeout':
      return new DialError('E_SCRIPT', `Lua script timed out after ${limits.timeoutMs / 1000} s`, { location });
    case 'memory':
      return new DialError(
        'E_SCRIPT',
        `Lua script ran out of memory (the sandbox allows ${Math.round(limits.memoryBytes / 1048576)} MiB)`,
        { location },
      );
    case 'syntax':
      return new DialError('E_SCRIPT', `Lua script syntax error: ${message}`, { location });
    default:
      return new DialError('E_SCRIPT', `Lua script error: ${message}`, { location });
  }
}

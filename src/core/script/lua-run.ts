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
const MENTIONS_BODY_COMPUTED = /\brequest\s*\.\s*body_computed\b/;

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
  // kulala's body_computed: the body with its variables filled in, as sent. A GraphQL request's is
  // the JSON payload kulala builds, and a `< ./file` body is not read: both left out (an error if read).
  if (request.substitute && !request.graphql && MENTIONS_BODY_COMPUTED.test(code)) {
    if (request.body?.kind === 'inline')
      data.body_computed = await request.substitute(request.body.text, env.requestVariables);
    else if (!request.body) data.body_computed = null;
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

function responseData(
  view: ResponseView | undefined,
  sent?: { method: string; url: string },
): Record<string, unknown> | null {
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
    // kulala's duration is in nanoseconds (curl's total time, or the wall time, in ns).
    duration: Math.round(view.durationMs * 1e6),
    ...(sent ? { url: sent.url, method: sent.method } : {}),
  };
}

/** `request.variables.get("NAME")` in a rest.nvim script: the names it reads literally. */
const RESTNVIM_VARIABLE_GET = /\brequest\s*\.\s*variables\s*\.\s*get\s*\(\s*(["'])([^"'\n]+)\1\s*\)/g;
/** `client.global.get("NAME")`, `vim.env.NAME`, `vim.env["NAME"]`: rest.nvim's global variables (Neovim's vim.env). */
const RESTNVIM_GLOBAL_READ =
  /\bclient\s*\.\s*global\s*\.\s*get\s*\(\s*(["'])([^"'\n]+)\1\s*\)|\bvim\s*\.\s*env\s*(?:\.\s*([A-Za-z_]\w*)|\[\s*(["'])([^"'\n]+)\4\s*\])/g;

/**
 * rest.nvim's `client.global.get(name)` / `vim.env[name]`: Neovim's environment, which
 * client.global.set writes and which starts as the process environment. dial's run-wide
 * variables first, then the process environment for that name, else nil (rest.nvim's get gives "").
 */
function restNvimGlobal(env: ScriptEnvironment, name: string): string | null {
  const value = env.globals.get(name);
  if (value !== undefined && value !== null) return typeof value === 'string' ? value : JSON.stringify(value);
  return (env.processEnv ?? process.env)[name] ?? null;
}

/**
 * rest.nvim's `request.variables.get(name)` (its context's resolve): the request's own variables,
 * then the file's and the environment's (dial's resolver, which also knows `$uuid`, `$date` …),
 * then Neovim's environment; "" when none has it.
 */
async function restNvimVariable(env: ScriptEnvironment, name: string): Promise<string> {
  const own = env.requestVariables.get(name);
  if (own !== undefined) return own;
  const placeholder = `{{${name}}}`;
  const filled = env.request?.substitute
    ? await env.request.substitute(placeholder, env.requestVariables)
    : placeholder;
  if (filled !== placeholder) return filled;
  const environment = env.environment(name);
  if (environment !== undefined) return environment;
  return restNvimGlobal(env, name) ?? '';
}

/** rest.nvim's response table: status {code, text}, body, headers by lower-case name (each a list). */
function restNvimResponse(view: ResponseView | undefined): Record<string, unknown> | null {
  if (!view) return null;
  const headers: Record<string, string[]> = {};
  for (const [name, value] of view.headers) (headers[name.toLowerCase()] ??= []).push(value);
  return { status: { code: view.status, text: view.statusText }, body: view.text(), headers };
}

async function restNvimData(env: ScriptEnvironment, code: string): Promise<Record<string, unknown>> {
  const values: Record<string, string> = {};
  for (const match of code.matchAll(RESTNVIM_VARIABLE_GET))
    if (!(match[2] in values)) values[match[2]] = await restNvimVariable(env, match[2]);
  const globalValues: Record<string, string | null> = {};
  const known: Record<string, boolean> = {};
  for (const match of code.matchAll(RESTNVIM_GLOBAL_READ)) {
    const name = match[2] ?? match[3] ?? match[5];
    known[name] = true;
    globalValues[name] = restNvimGlobal(env, name);
  }
  return {
    api: 'rest.nvim',
    variables: values,
    vimEnv: { values: globalValues, known },
    restResponse: restNvimResponse(env.response),
  };
}

/** rest.nvim 0.x's `context.result` (plenary.curl's response): status, `name: value` header lines, body. */
function restNvimLegacyData(env: ScriptEnvironment): Record<string, unknown> {
  const view = env.response;
  const restResponse = view
    ? { status: view.status, headerLines: view.headers.map(([name, value]) => `${name}: ${value}`), body: view.text() }
    : null;
  return { api: 'rest.nvim-0', restResponse };
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
  const restNvim = node.kind === 'inline' && node.lua !== undefined;
  const at = { file: script.filename, line: node.kind === 'inline' ? script.lineOffset + 1 : node.span.line };
  // kulala.utils.fs is kulala's module: rest.nvim's scripts are refused it by their own checks.
  const fs = !restNvim && script.code.includes('kulala.utils.fs') ? await import('./lua-fs.js') : undefined;
  const data = {
    ...(node.kind === 'inline' && node.lua === 'rest.nvim' ? await restNvimData(env, script.code) : {}),
    ...(node.kind === 'inline' && node.lua === 'rest.nvim-0' ? restNvimLegacyData(env) : {}),
    request: restNvim ? {} : await requestData(env, script.code),
    ...(fs ? { files: fs.readLuaFiles(script.code, file.path, at) } : {}),
    response: restNvim ? null : responseData(env.response, env.sent),
    responses: restNvim ? null : await responsesData(env, script.code, at),
    env: { values, known },
    globals,
    iteration: env.iteration ?? 1,
    control: env.control !== undefined,
    overridable: env.requestOverrides !== undefined,
    lineOffset: script.lineOffset,
  };
  const outcome = await runLua(script.code, script.filename, data, limits);
  // What the script did before it stopped counts, as a JavaScript script's calls do. (rest.nvim:
  // a handler's request.variables.set is gone with the request's context: kept in the script only.)
  if (!(restNvim && env.response))
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

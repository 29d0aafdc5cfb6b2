/**
 * What dial's Lua sandbox does not give kulala's Lua scripts, found in the code before anything
 * is sent (E_SCRIPT at the line): the file system, the process, Neovim's API, other modules,
 * and changing the request (but for url_raw and body_raw, in a pre-request script or in a handler that
 * calls request.replay(): the replay sends them). The sandbox refuses the same at run time (a name
 * it does not have is nil or an error); these checks make the common cases fail before the send.
 */
import { DialError } from '../errors.js';

const PROVIDED = {
  client: new Set(['global', 'log', 'test', 'assert', 'clear_all', 'responses']),
  request: new Set([
    'method',
    'url',
    'url_raw',
    'headers',
    'headers_raw',
    'body',
    'body_raw',
    'body_computed',
    'environment',
    'variables',
    'skip',
    'replay',
    'iteration',
  ]),
  response: new Set([
    'body',
    'body_raw',
    'json',
    'headers',
    'headers_tbl',
    'cookies',
    'response_code',
    'code',
    'status',
    'duration',
    'url',
    'method',
  ]),
  assert: new Set([
    'test',
    'is_true',
    'is_false',
    'same',
    'has_string',
    'response_has',
    'headers_has',
    'body_has',
    'json_has',
  ]),
  vim: new Set([
    'json',
    'inspect',
    'NIL',
    'uri_encode',
    'uri_decode',
    'split',
    'trim',
    'startswith',
    'endswith',
    'tbl_get',
    'tbl_keys',
    'tbl_values',
    'tbl_isempty',
    'deepcopy',
  ]),
};
const MODULES = new Set(['kulala.utils.json', 'kulala.utils.fs']);

/**
 * rest.nvim's script context (lua/rest-nvim/script/lua.lua): `request.variables.{set,get}`, in
 * handlers also `client.global.{set,get}` and `response` (its status, body and headers), and
 * Neovim's globals, of which dial gives the part below (`vim.env` as rest.nvim's
 * client.global reads and writes it). `assert` is Lua's own.
 */
const RESTNVIM_PROVIDED = {
  client: new Set(['global']),
  request: new Set(['variables']),
  response: new Set(['status', 'body', 'headers']),
  vim: new Set([...PROVIDED.vim, 'env', 'print']),
};

type Check = [RegExp, (match: RegExpExecArray, pre: boolean) => string | undefined, string];

const SANDBOX_CHECKS: Check[] = [
  [
    /\b(io|package|debug)\s*[.[:]/g,
    (m) => `'${m[1]}' (${m[1] === 'io' ? 'files' : m[1] === 'debug' ? 'the debug library' : 'module loading'})`,
    'Lua scripts in dial have no file system, process or module access',
  ],
  [
    /\bos\s*\.\s*(\w+)/g,
    (m) => (['time', 'clock', 'date', 'difftime'].includes(m[1]) ? undefined : `os.${m[1]}`),
    'of os, Lua scripts in dial have os.time, os.clock, os.date and os.difftime only',
  ],
  [
    /\b(loadfile|dofile|collectgarbage)\s*\(/g,
    (m) => m[1],
    'Lua scripts in dial cannot read files; put the code in the script',
  ],
];

const KULALA_CHECKS: Check[] = [
  ...SANDBOX_CHECKS,
  [
    /\brequire\s*\(?\s*(["'])([^"'\n]*)\1/g,
    (m) => (MODULES.has(m[2]) ? undefined : `require('${m[2]}')`),
    "dial gives Lua scripts kulala.utils.json (parse, encode) and kulala.utils.fs (read/write in the .http file's folder) as modules; vim.json does the same",
  ],
  [/\brequire\s*\(\s*[^"'\s)]/g, () => 'require of a computed name', 'dial gives Lua scripts kulala.utils.json only'],
  [
    /\b(client|request|response|assert|vim)\s*\.\s*([A-Za-z_]\w*)/g,
    (m) => (PROVIDED[m[1] as keyof typeof PROVIDED].has(m[2]) ? undefined : `${m[1]}.${m[2]}`),
    `dial's Lua scripts have client.{${[...PROVIDED.client].join(',')}}, request.{${[...PROVIDED.request].join(',')}}, response.{${[...PROVIDED.response].join(',')}}, assert.{…} and vim.{${[...PROVIDED.vim].join(',')}}`,
  ],
  [
    /\brequest\s*\.\s*(url_raw|url|headers_raw|headers|body_raw|body|method)\b\s*(?:\[[^\]\n]*\]\s*|\.\s*[A-Za-z_]\w*\s*)?=(?!=)/g,
    (m, pre) =>
      pre &&
      (m[1] === 'url_raw' || m[1] === 'body_raw') &&
      !m[0].includes('[') &&
      !/\.\s*\w+\s*=$/.test(m[0].slice(m[0].indexOf(m[1]) + m[1].length))
        ? undefined
        : `changes request.${m[1]}`,
    'a pre-request script, or a handler that calls request.replay(), may set request.url_raw and request.body_raw (templates, sent with their {{variables}} filled in); for anything else set a variable (request.environment.NAME = value) and use {{NAME}} in the request',
  ],
  [
    /\brequest\s*\.\s*(?:environment|variables)\s*\(/g,
    () => 'request.environment() (every variable)',
    'name the variable: request.environment.NAME',
  ],
];

/** rest.nvim 0.x: `context` and Neovim's globals (of which dial gives a part of vim). */
const RESTNVIM_LEGACY_CHECKS: Check[] = [
  ...SANDBOX_CHECKS,
  [
    /\brequire\s*\(?\s*(["'][^"'\n]*["']|[^"'\s)]+)/g,
    (m) => `require(${m[1]})`,
    "rest.nvim's Lua scripts in dial have context.json_decode for JSON and no other module",
  ],
  [
    /\b(context|vim)\s*\.\s*([A-Za-z_]\w*)/g,
    (m) =>
      (m[1] === 'context' ? ['result', 'json_decode', 'set_env', 'pretty_print'] : [...PROVIDED.vim]).includes(m[2])
        ? undefined
        : `${m[1]}.${m[2]}`,
    `dial gives rest.nvim 0.x scripts context.{result,json_decode,set_env,pretty_print} and vim.{${[...PROVIDED.vim].join(',')}}`,
  ],
];

const RESTNVIM_CHECKS: Check[] = [
  ...SANDBOX_CHECKS,
  [
    /\brequire\s*\(?\s*(["'][^"'\n]*["']|[^"'\s)]+)/g,
    (m) => `require(${m[1]})`,
    "rest.nvim's Lua scripts in dial have vim.json for JSON and no other module",
  ],
  [
    /\b(client|request|response|vim)\s*\.\s*([A-Za-z_]\w*)/g,
    (m) => (RESTNVIM_PROVIDED[m[1] as keyof typeof RESTNVIM_PROVIDED].has(m[2]) ? undefined : `${m[1]}.${m[2]}`),
    `dial gives rest.nvim's Lua scripts request.variables.{set,get}, client.global.{set,get}, response.{status,body,headers} and vim.{${[...RESTNVIM_PROVIDED.vim].join(',')}}`,
  ],
  [
    /\bresponse\s*\.\s*status\s*\.\s*version\b/g,
    () => 'response.status.version (the HTTP version curl reported)',
    'dial gives response.status.code and response.status.text',
  ],
  [
    /\bresponse\s*(?:\.\s*\w+|\[[^\]\n]*\])(?:\s*\.\s*\w+|\s*\[[^\]\n]*\])*\s*=(?!=)/g,
    () => 'changes the response',
    'dial shows and saves the response as it was received; compute the value in a local and log it (print) or set a variable (client.global.set)',
  ],
];

const LUA_TOKENS = /--\[(=*)\[[\s\S]*?\]\1\]|--[^\n]*|\[(=*)\[[\s\S]*?\]\2\]|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g;

/**
 * Lua comments blanked (their line breaks kept), and with `strings` the insides of strings too,
 * so the checks read code only (the module check reads the names in quotes).
 */
function codeOnly(code: string, strings: boolean): string {
  return code.replace(LUA_TOKENS, (text) => {
    const quoted = text.startsWith('"') || text.startsWith("'");
    if (!quoted) return text.replace(/[^\n]/g, ' ');
    return strings ? text[0] + ' '.repeat(text.length - 2) + text[0] : text;
  });
}

/** E_SCRIPT at the line of the first thing the Lua sandbox does not give, or nothing. */
export function refuseUnsupportedLua(
  code: string,
  filename: string,
  firstLine: number,
  pre: boolean,
  api: 'kulala' | 'rest.nvim' | 'rest.nvim-0' = 'kulala',
): void {
  const checks = api === 'rest.nvim' ? RESTNVIM_CHECKS : api === 'rest.nvim-0' ? RESTNVIM_LEGACY_CHECKS : KULALA_CHECKS;
  const withStrings = codeOnly(code, false);
  const text = codeOnly(code, true);
  // kulala keeps url_raw / body_raw on the request it replays: a handler that replays may set them.
  const overridable = pre || /\brequest\s*\.\s*replay\s*\(/.test(text);
  // A local or a parameter of that name is the script's own table, not dial's.
  const own = new Set<string>();
  for (const match of text.matchAll(/\blocal\s+([\w\s,]+?)\s*(?:=|\n|$)|\bfunction\b[^(\n]*\(([^)]*)\)/g))
    for (const name of (match[1] ?? match[2] ?? '').split(/[\s,]+/)) if (name) own.add(name);
  let first: { index: number; what: string; hint: string } | undefined;
  for (const [pattern, describe, hint] of checks) {
    pattern.lastIndex = 0;
    const source = pattern.source.startsWith('\\brequire') ? withStrings : text;
    for (let match = pattern.exec(source); match; match = pattern.exec(source)) {
      // A field of a table, not the global (`t.io.x`, `x:os`), is the script's own.
      const before = source.slice(0, match.index).trimEnd();
      if (before.endsWith('.') || before.endsWith(':')) continue;
      if (match[1] && own.has(match[1]) && pattern.source.startsWith('\\b(client|request|')) continue;
      if (api === 'rest.nvim' && own.has('response') && pattern.source.startsWith('\\bresponse')) continue;
      const what = describe(match, overridable);
      if (what === undefined) continue;
      if (!first || match.index < first.index) first = { index: match.index, what, hint };
      break;
    }
  }
  if (!first) return;
  const line = firstLine + (text.slice(0, first.index).match(/\n/g)?.length ?? 0);
  throw new DialError(
    'E_SCRIPT',
    `the ${api === 'kulala' ? '' : 'rest.nvim '}Lua script ${first.what.startsWith('changes ') ? first.what : `uses ${first.what}`}, which dial's Lua sandbox does not give; nothing was sent`,
    {
      location: { file: filename, line },
      hint: first.hint,
    },
  );
}

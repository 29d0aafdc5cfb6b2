/**
 * kulala.nvim's Lua script API as Lua source, run inside wasmoon (Lua 5.4 in WebAssembly) in a
 * worker thread (lua-engine.ts). The script gets a fresh environment table holding only what is
 * listed here: no `io`, `os` (but its clock and date functions), `package`, `debug`, `dofile`,
 * `loadfile`, `string.dump` or binary chunks; `require` gives dial's own modules only (kulala.utils.fs reads and writes through dial: lua-fs.ts). Nothing of
 * JavaScript is reachable: the data comes in as JSON text (`DIAL_DATA`) and the outcome goes out
 * as JSON text (the chunk's return value).
 *
 * What the data holds (lua-engine.ts builds it): request (method, url, headers, body and their
 * `_raw` forms), response (or null before the send), env (the environment and request variables
 * whose names the script reads literally, with `known` naming every name looked up), globals
 * (every run-wide variable), iteration and whether skip/replay can be taken.
 *
 * A field dial does not provide is an error where it is read ("not provided by dial"), never nil:
 * a script that reads something dial cannot give ends with file:line instead of going on wrong.
 */
export const LUA_PRELUDE = String.raw`
local DATA_TEXT, CODE, CHUNK = DIAL_DATA, DIAL_CODE, DIAL_CHUNK
DIAL_DATA, DIAL_CODE, DIAL_CHUNK = nil, nil, nil

local type, pairs, ipairs, next, tostring, tonumber, error, select, setmetatable, getmetatable, rawget, rawset, pcall =
  type, pairs, ipairs, next, tostring, tonumber, error, select, setmetatable, getmetatable, rawget, rawset, pcall
local sfmt, schar, sbyte, ssub, sfind, sgsub, srep, concat, insert, sort, floor =
  string.format, string.char, string.byte, string.sub, string.find, string.gsub, string.rep, table.concat, table.insert, table.sort, math.floor

string.dump = nil
local NIL = setmetatable({}, { __tostring = function() return 'vim.NIL' end, __metatable = false })

-- ---- JSON ------------------------------------------------------------------------------
local function decode(text)
  local pos = 1
  local function fail(what) error('JSON: ' .. what .. ' at character ' .. pos, 0) end
  local function ws() pos = (sfind(text, '[^ \t\r\n]', pos) or #text + 1) end
  local value
  local escapes = { ['"'] = '"', ['\\'] = '\\', ['/'] = '/', b = '\b', f = '\f', n = '\n', r = '\r', t = '\t' }
  local function utf8char(n)
    if n < 0x80 then return schar(n) end
    if n < 0x800 then return schar(0xC0 | (n >> 6), 0x80 | (n & 0x3F)) end
    if n < 0x10000 then return schar(0xE0 | (n >> 12), 0x80 | ((n >> 6) & 0x3F), 0x80 | (n & 0x3F)) end
    return schar(0xF0 | (n >> 18), 0x80 | ((n >> 12) & 0x3F), 0x80 | ((n >> 6) & 0x3F), 0x80 | (n & 0x3F))
  end
  local function str()
    pos = pos + 1
    local parts = {}
    while true do
      local s, e = sfind(text, '["\\]', pos)
      if not s then fail('unterminated string') end
      insert(parts, ssub(text, pos, s - 1))
      if ssub(text, s, s) == '"' then pos = e + 1 break end
      local c = ssub(text, s + 1, s + 1)
      if c == 'u' then
        local n = tonumber(ssub(text, s + 2, s + 5), 16)
        if not n then fail('bad \\u escape') end
        pos = s + 6
        if n >= 0xD800 and n < 0xDC00 and ssub(text, pos, pos + 1) == '\\u' then
          local low = tonumber(ssub(text, pos + 2, pos + 5), 16)
          if low and low >= 0xDC00 and low < 0xE000 then
            n = 0x10000 + ((n - 0xD800) << 10) + (low - 0xDC00)
            pos = pos + 6
          end
        end
        insert(parts, utf8char(n))
      else
        local r = escapes[c]
        if not r then fail('bad escape') end
        insert(parts, r)
        pos = s + 2
      end
    end
    return concat(parts)
  end
  function value()
    ws()
    local c = ssub(text, pos, pos)
    if c == '{' then
      local t = {}
      pos = pos + 1
      ws()
      if ssub(text, pos, pos) == '}' then pos = pos + 1 return t end
      while true do
        ws()
        if ssub(text, pos, pos) ~= '"' then fail('expected a key') end
        local k = str()
        ws()
        if ssub(text, pos, pos) ~= ':' then fail("expected ':'") end
        pos = pos + 1
        t[k] = value()
        ws()
        local d = ssub(text, pos, pos)
        pos = pos + 1
        if d == '}' then return t end
        if d ~= ',' then fail("expected ',' or '}'") end
      end
    elseif c == '[' then
      local t, n = {}, 0
      pos = pos + 1
      ws()
      if ssub(text, pos, pos) == ']' then pos = pos + 1 return t end
      while true do
        n = n + 1
        t[n] = value()
        ws()
        local d = ssub(text, pos, pos)
        pos = pos + 1
        if d == ']' then return t end
        if d ~= ',' then fail("expected ',' or ']'") end
      end
    elseif c == '"' then return str()
    elseif ssub(text, pos, pos + 3) == 'true' then pos = pos + 4 return true
    elseif ssub(text, pos, pos + 4) == 'false' then pos = pos + 5 return false
    elseif ssub(text, pos, pos + 3) == 'null' then pos = pos + 4 return NIL
    else
      local s, e = sfind(text, '^-?%d+%.?%d*[eE]?[-+]?%d*', pos)
      if not s then fail('unexpected character') end
      local n = tonumber(ssub(text, s, e))
      if not n then fail('bad number') end
      pos = e + 1
      return n
    end
  end
  if type(text) ~= 'string' then error('JSON: expected a string, got ' .. type(text), 0) end
  local result = value()
  ws()
  if pos <= #text then fail('trailing text') end
  return result
end

local function isarray(t)
  local n = 0
  for k in pairs(t) do
    if type(k) ~= 'number' or k < 1 or k % 1 ~= 0 then return false end
    n = n + 1
  end
  for i = 1, n do if t[i] == nil then return false end end
  return true, n
end

local function encode(v, seen)
  local tv = type(v)
  if v == nil or v == NIL then return 'null' end
  if tv == 'boolean' then return tostring(v) end
  if tv == 'number' then
    if v ~= v or v == math.huge or v == -math.huge then error('JSON: cannot encode ' .. tostring(v), 0) end
    if math.type(v) == 'integer' then return sfmt('%d', v) end
    if v % 1 == 0 and v > -1e15 and v < 1e15 then return sfmt('%d', v) end
    return sfmt('%.17g', v)
  end
  if tv == 'string' then
    return '"' .. sgsub(v, '[%c"\\]', function(c)
      local map = { ['"'] = '\\"', ['\\'] = '\\\\', ['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t' }
      return map[c] or sfmt('\\u%04x', sbyte(c))
    end) .. '"'
  end
  if tv == 'table' then
    seen = seen or {}
    if seen[v] then error('JSON: cannot encode a table that contains itself', 0) end
    seen[v] = true
    local out = {}
    local arr, n = isarray(v)
    if arr and n > 0 then
      for i = 1, n do out[i] = encode(v[i], seen) end
      seen[v] = nil
      return '[' .. concat(out, ',') .. ']'
    end
    local keys = {}
    for k in pairs(v) do
      if type(k) ~= 'string' and type(k) ~= 'number' then error('JSON: cannot encode a ' .. type(k) .. ' key', 0) end
      insert(keys, tostring(k))
    end
    sort(keys)
    for _, k in ipairs(keys) do
      local item = v[k]
      if item == nil then item = v[tonumber(k)] end
      insert(out, encode(k) .. ':' .. encode(item, seen))
    end
    seen[v] = nil
    return '{' .. concat(out, ',') .. '}'
  end
  error('JSON: cannot encode a ' .. tv, 0)
end

-- ---- vim.inspect (the shape of Neovim's, for logs) ----------------------------------------
local function inspect(v, indent, seen)
  indent = indent or ''
  local tv = type(v)
  if tv == 'string' then return sfmt('%q', v):gsub('\\\n', '\\n') end
  if tv ~= 'table' then return tostring(v) end
  if v == NIL then return 'vim.NIL' end
  seen = seen or {}
  if seen[v] then return '<cycle>' end
  seen[v] = true
  local parts, nested = {}, false
  local arr, n = isarray(v)
  if arr then
    for i = 1, n do
      if type(v[i]) == 'table' then nested = true end
      parts[i] = inspect(v[i], indent .. '  ', seen)
    end
  else
    local keys = {}
    for k in pairs(v) do insert(keys, k) end
    sort(keys, function(a, b) return tostring(a) < tostring(b) end)
    for _, k in ipairs(keys) do
      if type(v[k]) == 'table' then nested = true end
      local key = (type(k) == 'string' and sfind(k, '^[%a_][%w_]*$')) and k or ('[' .. inspect(k) .. ']')
      insert(parts, key .. ' = ' .. inspect(v[k], indent .. '  ', seen))
    end
  end
  seen[v] = nil
  if #parts == 0 then return '{}' end
  if not nested then return '{ ' .. concat(parts, ', ') .. ' }' end
  return '{\n' .. indent .. '  ' .. concat(parts, ',\n' .. indent .. '  ') .. '\n' .. indent .. '}'
end

local function deepcopy(v)
  if type(v) ~= 'table' or v == NIL then return v end
  local t = {}
  for k, x in pairs(v) do t[k] = deepcopy(x) end
  return t
end

-- ---- the outcome --------------------------------------------------------------------------
local D = decode(DATA_TEXT)
local out = { tests = {}, logs = {}, vars = {}, control = {} }
local function notProvided(what)
  error(what .. ' is not provided by dial (its Lua scripts have client, request, response, assert and a part of vim)', 2)
end
local function strict(name, t)
  return setmetatable(t, {
    __index = function(_, k) notProvided(name .. '.' .. tostring(k)) end,
    __metatable = false,
  })
end

local function log(msg)
  if #out.logs < 200 then insert(out.logs, ssub(type(msg) == 'string' and msg or inspect(msg), 1, 2000)) end
end

-- ---- assert (kulala: each check is a test result; nothing throws) -------------------------
local suite = nil
local function save(status, message, expected, value)
  local passed = status and status ~= nil and true or false
  local name = message or ('Assertion ' .. (passed and 'succeeded' or 'failed'))
  if suite then name = suite .. ': ' .. name end
  local result = { name = name, passed = passed }
  if not passed then result.message = 'expected: "' .. tostring(expected) .. '", got: "' .. tostring(value) .. '"' end
  insert(out.tests, result)
end
local function path(key)
  local parts = {}
  for part in string.gmatch(tostring(key), '[^%.%[%]]+') do insert(parts, tonumber(part) or part) end
  return parts
end
local function tblget(t, parts)
  for _, p in ipairs(parts) do
    if type(t) ~= 'table' or t == NIL then return nil end
    t = t[p]
  end
  return t
end

-- kulala's response object, from the data of one response.
local function responseObject(P)
  local ok, json = pcall(decode, P.body)
  -- Header names as the server wrote them may differ in case from the names dial received: looked up either way.
  local lower = {}
  for k, v in pairs(P.headers_tbl) do lower[string.lower(k)] = v end
  setmetatable(P.headers_tbl, { __index = function(_, k) return type(k) == 'string' and lower[string.lower(k)] or nil end })
  local fields = {
    body = P.body, body_raw = P.body, json = ok and json or nil,
    headers = P.headers, headers_tbl = P.headers_tbl, cookies = P.cookies,
    response_code = P.status, code = 0, status = true,
    duration = P.duration, url = P.url, method = P.method,
  }
  return setmetatable({}, {
    __index = function(_, k)
      local v = fields[k]
      if v == nil and k ~= 'json' then notProvided('response.' .. tostring(k)) end
      if v == NIL then return nil end
      return v
    end,
    __newindex = function(_, k) error('response.' .. tostring(k) .. ' cannot be changed', 2) end,
    __metatable = false,
  })
end

local response -- set below (nil before the send)
local function needResponse(what)
  if not response then error(what .. ' needs a response (it is for post-request scripts)', 3) end
  return response
end
local assertApi = {
  test = function(name, fn)
    suite = tostring(name)
    local ok, err = pcall(fn)
    suite = nil
    if not ok then error(err, 0) end
  end,
  is_true = function(value, message) save(value == true, message, true, value) end,
  is_false = function(value, message) save(value == false, message, false, value) end,
  same = function(value, expected, message) save(value == expected, message, expected, value) end,
  has_string = function(value, expected, message)
    local text = tostring(value)
    local status = sfind(text, tostring(expected), 1, true) ~= nil
    if #text > 50 then text = ssub(text, 1, 50) .. '...' end
    save(status, message, expected, text)
  end,
  response_has = function(key, expected, message)
    local value = tblget(needResponse('assert.response_has').json, path(key))
    save(value == expected, message, expected, inspect(value))
  end,
  headers_has = function(key, expected, message)
    local value = needResponse('assert.headers_has').headers_tbl[key]
    save(value == expected, message, expected, value)
  end,
  body_has = function(expected, message)
    local text = needResponse('assert.body_has').body
    local status = sfind(text, tostring(expected), 1, true) ~= nil
    if #text > 50 then text = ssub(text, 1, 50) .. '...' end
    save(status, message, expected, text)
  end,
  json_has = function(key, expected, message)
    local value = tblget(needResponse('assert.json_has').json, path(key))
    save(value == expected, message, expected, inspect(value))
  end,
}
local assert = setmetatable(assertApi, {
  __call = function(_, value, message) assertApi.is_true(value, message) end,
  __index = function(_, k) notProvided('assert.' .. tostring(k)) end,
  __metatable = false,
})

-- ---- client --------------------------------------------------------------------------------
local globals = D.globals
local initial = {}
for k, v in pairs(globals) do initial[k] = encode(v) end
local cleared = false
local globalProxy = setmetatable({}, {
  __index = function(_, k) local v = globals[k] if v == NIL then return nil end return v end,
  __newindex = function(_, k, v)
    if type(k) ~= 'string' then error('client.global: names are strings', 2) end
    globals[k] = v
  end,
  __pairs = function() return next, globals, nil end,
  __metatable = false,
})
local client = strict('client', {
  global = globalProxy,
  log = log,
  test = function(name, fn) assertApi.test(name, fn) end,
  assert = assert,
  clear_all = function() for k in pairs(globals) do globals[k] = nil end cleared = true end,
  responses = setmetatable({}, {
    __index = function(_, k)
      if D.responses == nil or D.responses == NIL then error('client.responses is taken by dial run only', 2) end
      local r = D.responses[k]
      if r == nil then
        error("client.responses['" .. tostring(k) .. "']: dial hands a script the responses it names literally (client.responses[\"name\"]); this name is computed", 2)
      end
      if r == NIL then return {} end
      return responseObject(r)
    end,
    __metatable = false,
  }),
})

-- ---- request -------------------------------------------------------------------------------
local R = D.request
local env, known = D.env.values, D.env.known
local written = {}
local environment = setmetatable({}, {
  __index = function(_, k)
    if written[k] ~= nil then return written[k] end
    if not known[k] then
      error("request.environment['" .. tostring(k) .. "']: dial hands a script the variables it names literally (request.environment.NAME); this name is computed", 2)
    end
    local v = env[k]
    if v == NIL then return nil end
    return v
  end,
  __newindex = function(_, k, v)
    if type(k) ~= 'string' then error('request.environment: names are strings', 2) end
    if v == nil then error("request.environment." .. k .. " = nil: dial cannot unset a variable", 2) end
    if type(v) == 'table' then error("request.environment." .. k .. ": a variable holds text, not a table", 2) end
    written[k] = tostring(v)
    out.vars[k] = tostring(v)
  end,
  __call = function() error('request.environment() (every variable) is not provided by dial: name the variable', 2) end,
  __metatable = false,
})
local requestFields = {
  method = R.method, url = R.url, url_raw = R.url_raw,
  headers = R.headers, headers_raw = R.headers_raw,
  body = R.body, body_raw = R.body_raw, body_computed = R.body_computed,
  environment = environment, variables = environment,
  skip = function(message)
    if not D.control then error('request.skip() is taken by dial run only', 2) end
    if D.response ~= NIL and D.response ~= nil then error('request.skip() is for pre-request scripts (the request was already sent)', 2) end
    out.control.skip = message ~= nil and tostring(message) or ''
  end,
  replay = function()
    if not D.control then error('request.replay() is taken by dial run only', 2) end
    if D.response == NIL or D.response == nil then error('request.replay() is for post-request scripts (> {% ... %})', 2) end
    out.control.replay = true
  end,
  iteration = function() return D.iteration end,
}
local request = setmetatable({}, {
  __index = function(_, k)
    local v = requestFields[k]
    if v == nil then
      if k == 'url' or k == 'headers' or k == 'body' then
        error('request.' .. k .. ' was not read before the script ran (dial fills it in for scripts that name it)', 2)
      end
      notProvided('request.' .. tostring(k))
    end
    if v == NIL then return nil end
    return v
  end,
  __newindex = function(_, k, v)
    if k == 'url_raw' or k == 'body_raw' then
      if not D.overridable then
        error('request.' .. k .. ' = ...: dial takes a new URL or body from a pre-request script, or a handler that calls request.replay(), of dial run only', 2)
      end
      if type(v) ~= 'string' then error('request.' .. k .. ' = ...: a string, not a ' .. type(v), 2) end
      requestFields[k] = v
      out.request = out.request or {}
      out.request[k == 'url_raw' and 'url' or 'body'] = v
      return
    end
    error('request.' .. tostring(k) .. ' = ...: changing the request from a script is not supported by dial (a pre-request script may set request.url_raw and request.body_raw)', 2)
  end,
  __metatable = false,
})

-- ---- response ------------------------------------------------------------------------------
if D.response ~= NIL and D.response ~= nil then response = responseObject(D.response) end

-- ---- vim (a part) and modules ---------------------------------------------------------------
local function uri_encode(s)
  return (sgsub(tostring(s), '[^%w%-%._~]', function(c) return sfmt('%%%02X', sbyte(c)) end))
end
local function uri_decode(s)
  return (sgsub(tostring(s), '%%(%x%x)', function(h) return schar(tonumber(h, 16)) end))
end
local function split(s, sep, opts)
  local plain = opts and opts.plain
  local parts, start = {}, 1
  while true do
    local a, b = sfind(s, sep, start, plain)
    if not a or b < a then insert(parts, ssub(s, start)) break end
    insert(parts, ssub(s, start, a - 1))
    start = b + 1
  end
  if opts and opts.trimempty then
    while parts[1] == '' do table.remove(parts, 1) end
    while parts[#parts] == '' do table.remove(parts) end
  end
  return parts
end
local jsonApi = strict('vim.json', {
  decode = decode,
  encode = function(v) return encode(v) end,
})
local vim = strict('vim', {
  json = jsonApi,
  inspect = function(v) return inspect(v) end,
  NIL = NIL,
  uri_encode = uri_encode,
  uri_decode = uri_decode,
  split = split,
  trim = function(s) return (sgsub(s, '^%s*(.-)%s*$', '%1')) end,
  startswith = function(s, p) return ssub(s, 1, #p) == p end,
  endswith = function(s, p) return p == '' or ssub(s, -#p) == p end,
  tbl_get = function(t, ...) return tblget(t, { ... }) end,
  tbl_keys = function(t) local r = {} for k in pairs(t) do insert(r, k) end return r end,
  tbl_values = function(t) local r = {} for _, v in pairs(t) do insert(r, v) end return r end,
  tbl_isempty = function(t) return next(t) == nil end,
  deepcopy = deepcopy,
})
local modules = {
  ['kulala.utils.json'] = strict('kulala.utils.json', {
    parse = function(text) if text == nil then return nil end return decode(text) end,
    encode = function(v) return encode(v) end,
  }),
}
-- kulala.utils.fs: reads come from D.files (read by dial before the script ran, by the path as
-- written); writes go out in out.files and dial writes them after the script (lua-fs.ts).
local files = D.files or {}
local function fsKnown(fn, name)
  if type(name) ~= 'string' then error('kulala.utils.fs.' .. fn .. ': the path must be a string', 3) end
  local v = files[name]
  if v == nil then
    error('kulala.utils.fs.' .. fn .. "('" .. name .. "'): dial reads only files named by a string literal in the script", 3)
  end
  return v
end
local function fsWrite(fn, name, content, extra)
  if type(name) ~= 'string' then error('kulala.utils.fs.' .. fn .. ': the path must be a string', 3) end
  out.files = out.files or {}
  local w = { path = name, content = content }
  for k, v in pairs(extra or {}) do w[k] = v end
  insert(out.files, w)
  files[name] = (w.append and type(files[name]) == 'string') and (files[name] .. content) or content
  return true
end
local fsApi = strict('kulala.utils.fs', {
  read_file = function(name, binary)
    local v = fsKnown('read_file', name)
    if v == false then return nil end
    if binary then return v end
    return (sgsub(v, '\r\n', '\n'))
  end,
  read_json = function(name)
    local v = fsKnown('read_json', name)
    if v == false then return nil end
    if v == '' then v = '{}' end
    local ok, parsed = pcall(decode, v)
    if not ok then return nil, parsed end
    return parsed
  end,
  file_exists = function(name) return fsKnown('file_exists', name) ~= false end,
  write_file = function(name, content, append, binary)
    if binary then error('kulala.utils.fs.write_file: binary content is not supported by dial', 2) end
    return fsWrite('write_file', name, tostring(content), { append = append and true or false })
  end,
  write_json = function(name, data, format)
    if type(data) ~= 'table' then error('kulala.utils.fs.write_json: the data must be a table', 2) end
    if next(data) == nil then data = { _ = '' } end
    return fsWrite('write_json', name, encode(data), { pretty = format and true or false })
  end,
})
modules['kulala.utils.fs'] = fsApi
local function require(name)
  local m = modules[name]
  if not m then error("require('" .. tostring(name) .. "'): dial's Lua scripts can load kulala.utils.json and kulala.utils.fs only", 2) end
  return m
end

-- ---- rest.nvim's script context (its lua/rest-nvim/script/lua.lua) ---------------------------
-- request.variables.{set,get} (the request's own variables; get resolves as rest.nvim's context
-- does, filled in before the run for the names written literally), and in handlers
-- client.global.{set,get} (Neovim's vim.env: dial's run-wide variables) and the raw response
-- table. assert is Lua's own; a pre-request script has no client and no response.
local context -- rest.nvim 0.x's only name (set below)
-- A value as Neovim's environment (and rest.nvim 0.x's env file) holds it: text, numbers as Vim prints them.
local function envText(v, what)
  if type(v) == 'string' then return v end
  if math.type(v) == 'integer' or (type(v) == 'number' and v % 1 == 0 and v > -1e15 and v < 1e15) then return sfmt('%d', v) end
  if type(v) == 'number' then return sfmt('%g', v) end
  error(what .. ': a ' .. type(v) .. ' cannot be an environment value', 3)
end
if D.api == 'rest.nvim' then
  local envKnown, envValues, touched = D.vimEnv.known, D.vimEnv.values, {}
  local vimEnv = setmetatable({}, {
    __index = function(_, k)
      if touched[k] then return globals[k] end
      if not envKnown[k] then
        error("vim.env['" .. tostring(k) .. "']: dial hands a script the variables it names literally (client.global.get(\"NAME\")); this name is computed", 2)
      end
      local v = envValues[k]
      if v == NIL then return nil end
      return v
    end,
    __newindex = function(_, k, v)
      if type(k) ~= 'string' then error('vim.env: names are strings', 2) end
      touched[k] = true
      globals[k] = v ~= nil and envText(v, 'vim.env.' .. k) or nil
    end,
    __metatable = false,
  })
  rawset(vim, 'env', vimEnv)
  rawset(vim, 'print', function(...)
    for i = 1, select('#', ...) do log((select(i, ...))) end
    return ...
  end)
  local lv, resolved = {}, D.variables
  local function validate(key, value)
    if type(key) ~= 'string' then error('key: expected string, got ' .. type(key), 3) end
    if type(value) ~= 'string' then error('value: expected string, got ' .. type(value), 3) end
  end
  request = {
    variables = {
      set = function(key, value)
        validate(key, value)
        lv[key] = value
        out.vars[key] = value
      end,
      get = function(key)
        if lv[key] ~= nil then return lv[key] end
        local v = resolved[key]
        if v == nil then
          error("request.variables.get('" .. tostring(key) .. "'): dial hands a script the variables it names literally (request.variables.get(\"NAME\")); this name is computed", 2)
        end
        return v
      end,
    },
  }
  client, response = nil, nil
  local R = D.restResponse
  if R ~= nil and R ~= NIL then
    client = {
      global = {
        set = function(key, value) vimEnv[key] = value end,
        get = function(key) return vimEnv[key] or '' end,
      },
    }
    setmetatable(R.status, { __index = function(_, k) if k == 'version' then notProvided('response.status.version') end end })
    response = setmetatable(R, { __index = function(_, k) if k == 'statistics' then notProvided('response.statistics') end end })
  end
  assert = rawget(_G, 'assert')
end
-- rest.nvim 0.x (its curl/init.lua): the script's only name is context = {result (plenary's curl
-- response: status, headers as "name: value" lines, body), json_decode, set_env, pretty_print}.
-- set_env wrote the value into the .env file the next requests read: here a run-wide variable.
if D.api == 'rest.nvim-0' then
  local R = D.restResponse
  context = {
    result = { status = R.status, headers = R.headerLines, body = R.body, exit = 0 },
    json_decode = decode,
    set_env = function(key, value)
      if type(key) ~= 'string' then error('set_env: names are strings', 2) end
      globals[key] = value ~= nil and envText(value, 'set_env ' .. key) or nil
    end,
    pretty_print = function(...)
      for i = 1, select('#', ...) do log((select(i, ...))) end
    end,
  }
  client, request, response = nil, nil, nil
  assert = rawget(_G, 'assert')
end

-- ---- the sandbox -----------------------------------------------------------------------------
local function copy(t, without)
  local r = {}
  for k, v in pairs(t) do if not (without and without[k]) then r[k] = v end end
  return r
end
local sandbox = {
  client = client, request = request, response = response, assert = assert, vim = vim, require = require, context = context,
  print = function(...)
    local parts = {}
    for i = 1, select('#', ...) do parts[i] = tostring((select(i, ...))) end
    log(concat(parts, '\t'))
  end,
  error = error, ipairs = ipairs, next = next, pairs = pairs, pcall = pcall, xpcall = xpcall,
  rawequal = rawequal, rawget = rawget, rawlen = rawlen, rawset = rawset, select = select,
  getmetatable = getmetatable, tonumber = tonumber, tostring = tostring, type = type,
  setmetatable = function(t, mt)
    if type(mt) == 'table' and rawget(mt, '__gc') ~= nil then error('setmetatable: __gc is not allowed in dial scripts', 2) end
    return setmetatable(t, mt)
  end,
  _VERSION = _VERSION, unpack = table.unpack,
  string = copy(string), table = copy(table), math = copy(math), utf8 = copy(utf8), coroutine = copy(coroutine),
  os = { time = os.time, clock = os.clock, date = os.date, difftime = os.difftime },
}
sandbox._G = sandbox
sandbox.load = function(chunk, name, _, envTable)
  if type(chunk) ~= 'string' then error('load: dial scripts load text only', 2) end
  return load(chunk, name, 't', envTable or sandbox)
end
getmetatable('').__metatable = false

local fn, syntax = load(srep('\n', D.lineOffset) .. CODE, '@' .. CHUNK, 't', sandbox)
if not fn then return encode({ error = { kind = 'syntax', message = syntax } }) end
local ok, err = xpcall(fn, function(e)
  if type(e) == 'string' and sfind(e, 'not enough memory', 1, true) then return { memory = true } end
  return e
end)
if not ok then
  if (type(err) == 'table' and err.memory) or (type(err) == 'string' and sfind(err, 'not enough memory', 1, true)) then
    return encode({ error = { kind = 'memory', message = 'not enough memory' } })
  end
  out.error = { kind = 'runtime', message = type(err) == 'string' and err or inspect(err) }
end
local changed, removed = {}, {}
for k, v in pairs(globals) do
  if initial[k] == nil or encode(v) ~= initial[k] then changed[k] = v end
end
for k in pairs(initial) do if globals[k] == nil then insert(removed, k) end end
out.globals = { set = changed, removed = removed, cleared = cleared }
return encode(out)
`;

/**
 * The script API as JavaScript source, evaluated inside the script engine (the QuickJS sandbox,
 * or node:vm for a trusted workspace). It talks to dial through one function, `host(op, json)`,
 * that takes and answers JSON text only: no object of the host program ever enters the sandbox,
 * so nothing in it leads back to `process`, the file system or the network.
 *
 * The source is a plain string, not a compiled function, so that no bundler or transpiler
 * helper can slip into it. It defines the globals (`crypto`, `$random`, `assert`, `require`,
 * timers) and answers `{ run, evaluate }`.
 */
export const PRELUDE_SOURCE = String.raw`(function (host, node) {
  'use strict';
  var G = globalThis;
  function call(op) {
    var args = [];
    for (var i = 1; i < arguments.length; i++) args.push(arguments[i] === undefined ? null : arguments[i]);
    var out = host(op, JSON.stringify(args));
    if (out === undefined || out === null) return undefined;
    var parsed = JSON.parse(out);
    if (parsed && parsed.__hostError) throw new Error(parsed.__hostError);
    return parsed.value;
  }
  function fmt(v) {
    if (typeof v === 'string') return v;
    try { var s = JSON.stringify(v); return s === undefined ? String(v) : s; } catch (e) { return String(v); }
  }
  function typed(name, message, extra) {
    var e = new Error(message);
    e.name = name;
    if (extra) for (var k in extra) e[k] = extra[k];
    return e;
  }
  function unsupported(api) {
    throw typed('UnsupportedApiError', "'" + api + "' is not supported in dial scripts yet", { api: api });
  }
  function needsNode(what) {
    throw typed('NodeAccessRequired', what, { what: what });
  }
  function messageOf(e) { return e && typeof e === 'object' && 'message' in e ? String(e.message) : String(e); }
  // QuickJS writes Date#toString without the "(Coordinated Universal Time)" that Node (httpyac's,
  // kulala's engine) and browsers add; scripts put that text in requests ({{new Date().toString()}}).
  (function () {
    var plain = Date.prototype.toString;
    if (/\)$/.test(plain.call(new Date(0)))) return;
    Object.defineProperty(Date.prototype, 'toString', {
      configurable: true,
      writable: true,
      value: function toString() {
        var text = plain.call(this);
        if (isNaN(this.getTime())) return text;
        var zone = call('timeZoneName', this.getTime());
        return zone ? text + ' (' + zone + ')' : text;
      },
    });
  })();

  // ---- client -------------------------------------------------------------------------
  var pending = [];
  function log() {
    var parts = [];
    for (var i = 0; i < arguments.length; i++) parts.push(fmt(arguments[i]));
    call('log', parts.join(' '));
  }
  function test(name, fn) {
    var testName = String(name);
    if (typeof fn !== 'function') { call('test', testName, false, 'client.test needs a function'); return; }
    try {
      var result = fn();
      if (result && typeof result.then === 'function') {
        pending.push(result.then(function () { call('test', testName, true); },
          function (e) { if (e && (e.name === 'UnsupportedApiError' || e.name === 'ClientExit')) throw e; call('test', testName, false, messageOf(e)); }));
        return;
      }
      call('test', testName, true);
    } catch (e) {
      if (e && (e.name === 'UnsupportedApiError' || e.name === 'NodeAccessRequired' || e.name === 'ClientExit')) throw e;
      call('test', testName, false, messageOf(e));
    }
  }
  function clientAssert(condition, message) {
    if (!condition) throw typed('ScriptAssertionError', message === undefined ? 'assertion failed' : String(message));
  }
  var client = {
    test: test,
    assert: clientAssert,
    log: log,
    global: {
      set: function (name, value) { call('globalSet', String(name), value === undefined ? null : value); },
      get: function (name) { var v = call('globalGet', String(name)); return v === undefined ? null : v; },
      clear: function (name) { call('globalClear', String(name)); },
      clearAll: function () { call('globalClearAll'); },
      isEmpty: function () { return call('globalIsEmpty'); },
      // JetBrains: headers added to this request (from a pre-request script) and to the later ones.
      headers: {
        set: function (name, value) {
          if (value === undefined || value === null) call('globalHeaderClear', String(name));
          else call('globalHeaderSet', String(name), typeof value === 'string' ? value : fmt(value));
        },
        clear: function (name) { call('globalHeaderClear', String(name)); }
      }
    },
    // JetBrains: ends the script here; what it did so far stays done.
    exit: function () { throw typed('ClientExit', 'client.exit()'); }
  };
  // JetBrains 2025.3: one door to every scope (the older ones stay).
  var scriptRequestData = null;
  client.variables = {
    global: client.global,
    environment: { get: function (name) { var v = call('envGet', String(name)); return v === undefined ? null : v; } },
    request: {
      set: function (name, value) {
        if (Array.isArray(value)) call('varSetList', String(name), value);
        else call('varSet', String(name), typeof value === 'string' ? value : fmt(value));
      },
      get: function (name) { var v = call('varGet', String(name)); return v === undefined ? null : v; },
      clear: function (name) { call('varClear', String(name)); },
      clearAll: function () { call('varClearAll'); },
      isEmpty: function () { return call('varIsEmpty'); }
    },
    file: {
      get: function (name) {
        var n = String(name), fv = scriptRequestData && scriptRequestData.fileVariables;
        if (fv && Object.prototype.hasOwnProperty.call(fv.values, n)) return fv.values[n];
        if (fv && fv.declared.indexOf(n) >= 0)
          unsupported("client.variables.file.get('" + n + "') of a value that reads another request, or not named literally");
        return null;
      }
    }
  };
  Object.defineProperty(client, 'websocket', { get: function () { unsupported('client.websocket'); } });
  Object.defineProperty(client, 'oauth2', { get: function () { unsupported('client.oauth2'); } });

  // JetBrains' request.url / headers / body: as written (getRaw), or with the variables known before
  // the script ran filled in (tryGetSubstituted; host.ts checks none was set by the script since).
  function substituted(value) {
    if (value === null || value === undefined) unsupported('tryGetSubstituted here');
    call('checkSubstituted', value);
    return value;
  }
  function makeRequest(data) {
    var sub = data.substituted;
    var url = new String(data.url);
    url.getRaw = function () { return data.url; };
    url.tryGetSubstituted = function () { return substituted(sub ? sub.url : null); };
    var headerList = (data.headers || []).map(function (h, i) {
      return {
        name: h[0],
        getRawValue: function () { return h[1]; },
        tryGetSubstitutedValue: function () { return substituted(sub ? sub.headers[i] : null); }
      };
    });
    var body = {
      getRaw: function () {
        if (data.body && data.body.kind === 'file') unsupported('request.body of a < ./file body');
        return data.body ? data.body.text : undefined;
      },
      tryGetSubstituted: function () {
        if (data.body && data.body.kind === 'file') unsupported('request.body of a < ./file body');
        return data.body ? substituted(sub ? sub.body : null) : undefined;
      }
    };
    return {
      method: data.method,
      url: url,
      headers: {
        all: function () { return headerList.slice(); },
        findByName: function (name) {
          var n = String(name).toLowerCase();
          for (var i = 0; i < headerList.length; i++) if (headerList[i].name.toLowerCase() === n) return headerList[i];
          return null;
        }
      },
      body: body,
      variables: {
        set: function (name, value) {
          // JetBrains: a list makes the request go once per item (httpfile/list-iteration.ts).
          if (Array.isArray(value)) call('varSetList', String(name), value);
          else call('varSet', String(name), typeof value === 'string' ? value : fmt(value));
        },
        get: function (name) { var v = call('varGet', String(name)); return v === undefined ? null : v; },
        clear: function (name) { call('varClear', String(name)); },
        clearAll: function () { call('varClearAll'); },
        isEmpty: function () { return call('varIsEmpty'); }
      },
      iteration: function () { return call('iteration'); },
      // kulala: not sent (skip), not sent and an error (abort), sent again after its handlers (replay).
      skip: function (message) { call('requestSkip', message === undefined ? null : String(message)); },
      abort: function (message) { call('requestAbort', message === undefined ? null : String(message)); },
      replay: function () { call('requestReplay'); },
      templateValue: function () { unsupported('request.templateValue'); },
      environment: { get: function (name) { var v = call('envGet', String(name)); return v === undefined ? null : v; } }
    };
  }
  function makeResponse(data) {
    var lower = data.headers.map(function (h) { return [String(h[0]).toLowerCase(), h[1]]; });
    function valuesOf(name) {
      var n = String(name).toLowerCase(), out = [];
      for (var i = 0; i < lower.length; i++) if (lower[i][0] === n) out.push(lower[i][1]);
      return out;
    }
    var bodyState = 0, bodyValue;
    function body() { if (!bodyState) { bodyValue = call('body'); bodyState = 1; } return bodyValue; }
    var response = {
      status: data.status,
      statusCode: data.status,
      responseCode: data.status,
      statusText: data.statusText,
      headers: { valueOf: function (name) { var v = valuesOf(name); return v.length ? v[0] : null; }, valuesOf: valuesOf },
      contentType: { mimeType: data.mimeType, charset: data.charset || 'UTF-8' },
      duration: data.duration
    };
    Object.defineProperty(response, 'body', { enumerable: true, get: body });
    Object.defineProperty(response, 'parsedBody', { enumerable: false, get: function () { return call('json'); } });
    return response;
  }

  // ---- crypto: JetBrains builders and the hashing part of Node's crypto ------------------
  var ALGORITHMS = ['md5', 'sha1', 'sha256', 'sha384', 'sha512'];
  function digestOf(parts) {
    var hex = call('digest', parts);
    return { toHex: function () { return hex.hex; }, toBase64: function (urlSafe) { return urlSafe ? hex.base64url : hex.base64; }, toUrlSafeBase64: function () { return hex.base64url; } };
  }
  function builder(algorithm, hmac) {
    var parts = { algorithm: algorithm, data: [], key: null };
    var b = {
      updateWithText: function (t) { parts.data.push(['utf8', String(t)]); return b; },
      updateWithHex: function (t) { parts.data.push(['hex', String(t)]); return b; },
      updateWithBase64: function (t) { parts.data.push(['base64', String(t)]); return b; },
      digest: function () { return digestOf(parts); }
    };
    if (hmac) {
      b.withTextSecret = function (s) { parts.key = ['utf8', String(s)]; return b; };
      b.withHexSecret = function (s) { parts.key = ['hex', String(s)]; return b; };
      b.withBase64Secret = function (s) { parts.key = ['base64', String(s)]; return b; };
    }
    return b;
  }
  var jetbrainsCrypto = { hmac: {} };
  ALGORITHMS.forEach(function (a) {
    jetbrainsCrypto[a] = function () { return builder(a, false); };
    jetbrainsCrypto.hmac[a] = function () { return builder(a, true); };
  });
  function nodeHash(algorithm, key) {
    var parts = { algorithm: String(algorithm).toLowerCase().replace('-', ''), data: [], key: key === undefined ? null : ['utf8', String(key)] };
    var h = {
      update: function (data, encoding) { parts.data.push([encoding || 'utf8', String(data)]); return h; },
      digest: function (encoding) {
        var d = call('digest', parts);
        if (encoding === 'hex') return d.hex;
        if (encoding === 'base64') return d.base64;
        if (encoding === 'base64url') return d.base64url;
        unsupported("crypto digest('" + encoding + "') (use 'hex' or 'base64')");
      }
    };
    return h;
  }
  var nodeCrypto = {
    createHash: function (a) { return nodeHash(a); },
    createHmac: function (a, key) { return nodeHash(a, key); },
    randomUUID: function () { return call('uuid'); },
    randomBytes: function (n) { return makeBuffer(call('randomBytes', Number(n))); }
  };
  Object.keys(jetbrainsCrypto).forEach(function (k) { nodeCrypto[k] = jetbrainsCrypto[k]; });

  // ---- $random ----------------------------------------------------------------------------
  function pick(alphabet, n) { var s = ''; for (var i = 0; i < (n || 10); i++) s += alphabet[Math.floor(Math.random() * alphabet.length)]; return s; }
  var LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  // JetBrains documents $random.integer(from, to) / float(from, to): both bounds or none; one
  // bound, or from >= to, has no documented meaning and is refused (as {{$random.integer(n)}} is).
  function bounds(kind, args) {
    if (args.length === 0 || (args[0] === undefined && args[1] === undefined)) return [0, 1000];
    var lo = Number(args[0]), hi = Number(args[1]);
    if (args.length < 2 || args[1] === undefined || !(lo < hi)) unsupported('$random.' + kind + ' with one bound or from >= to');
    return [lo, hi];
  }
  var random = {
    integer: function () { var b = bounds('integer', arguments); return Math.floor(b[0] + Math.random() * (b[1] - b[0])); },
    float: function () { var b = bounds('float', arguments); return b[0] + Math.random() * (b[1] - b[0]); },
    alphabetic: function (n) { return pick(LETTERS, n); },
    alphanumeric: function (n) { return pick(LETTERS + '0123456789_', n); },
    hexadecimal: function (n) { return pick('0123456789abcdef', n); }
  };
  Object.defineProperty(random, 'uuid', { enumerable: true, get: function () { return call('uuid'); } });
  Object.defineProperty(random, 'email', { enumerable: true, get: function () { return pick(LETTERS, 8).toLowerCase() + '@example.com'; } });

  // ---- assertions: Node's assert, a small chai-style expect, kulala's assert ---------------
  function same(a, b) {
    if (a === b) return true;
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return a !== a && b !== b;
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    var ka = Object.keys(a), kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    for (var i = 0; i < ka.length; i++) if (!Object.prototype.hasOwnProperty.call(b, ka[i]) || !same(a[ka[i]], b[ka[i]])) return false;
    return true;
  }
  function fail(message, fallback) { throw typed('AssertionError', message === undefined ? fallback : String(message)); }
  function nodeAssert(v, m) { if (!v) fail(m, 'expected a truthy value, got ' + fmt(v)); }
  nodeAssert.ok = nodeAssert;
  nodeAssert.equal = function (a, b, m) { if (a != b) fail(m, fmt(a) + ' == ' + fmt(b)); };
  nodeAssert.notEqual = function (a, b, m) { if (a == b) fail(m, fmt(a) + ' != ' + fmt(b)); };
  nodeAssert.strictEqual = function (a, b, m) { if (a !== b) fail(m, fmt(a) + ' === ' + fmt(b)); };
  nodeAssert.notStrictEqual = function (a, b, m) { if (a === b) fail(m, fmt(a) + ' !== ' + fmt(b)); };
  nodeAssert.deepEqual = nodeAssert.deepStrictEqual = function (a, b, m) { if (!same(a, b)) fail(m, fmt(a) + ' deep-equals ' + fmt(b)); };
  nodeAssert.notDeepEqual = nodeAssert.notDeepStrictEqual = function (a, b, m) { if (same(a, b)) fail(m, fmt(a) + ' differs from ' + fmt(b)); };
  nodeAssert.match = function (s, re, m) { if (!re.test(s)) fail(m, fmt(s) + ' matches ' + String(re)); };
  nodeAssert.fail = function (m) { fail(m, 'failed'); };
  nodeAssert.throws = function (fn, m) { try { fn(); } catch (e) { return; } fail(typeof m === 'string' ? m : undefined, 'expected the function to throw'); };

  function expect(actual) {
    var negate = false;
    var check = function (ok, message) { if (ok === negate) fail(undefined, 'expected ' + fmt(actual) + (negate ? ' not ' : ' ') + message); return chain; };
    var chain = {
      equal: function (v) { return check(actual === v, 'to equal ' + fmt(v)); },
      eql: function (v) { return check(same(actual, v), 'to deeply equal ' + fmt(v)); },
      include: function (v) { return check(actual != null && (typeof actual === 'string' || Array.isArray(actual) ? actual.indexOf(v) >= 0 : Object.prototype.hasOwnProperty.call(actual, v)), 'to include ' + fmt(v)); },
      property: function (name, v) { var has = actual != null && Object.prototype.hasOwnProperty.call(Object(actual), name); return check(arguments.length > 1 ? has && same(actual[name], v) : has, 'to have property ' + fmt(name)); },
      lengthOf: function (n) { return check(actual != null && actual.length === n, 'to have length ' + n); },
      a: function (type) { var t = Array.isArray(actual) ? 'array' : actual === null ? 'null' : typeof actual; return check(t === String(type).toLowerCase(), 'to be a ' + type); },
      above: function (n) { return check(actual > n, 'to be above ' + n); },
      below: function (n) { return check(actual < n, 'to be below ' + n); },
      match: function (re) { return check(re.test(actual), 'to match ' + String(re)); }
    };
    chain.equals = chain.eq = chain.equal;
    chain.an = chain.a;
    chain.contain = chain.includes = chain.include;
    chain.greaterThan = chain.gt = chain.above;
    chain.lessThan = chain.lt = chain.below;
    ['to', 'be', 'been', 'is', 'that', 'which', 'and', 'has', 'have', 'with', 'deep', 'does'].forEach(function (w) { Object.defineProperty(chain, w, { get: function () { return chain; } }); });
    Object.defineProperty(chain, 'not', { get: function () { negate = !negate; return chain; } });
    Object.defineProperty(chain, 'ok', { get: function () { return check(Boolean(actual), 'to be truthy'); } });
    Object.defineProperty(chain, 'true', { get: function () { return check(actual === true, 'to be true'); } });
    Object.defineProperty(chain, 'false', { get: function () { return check(actual === false, 'to be false'); } });
    Object.defineProperty(chain, 'null', { get: function () { return check(actual === null, 'to be null'); } });
    Object.defineProperty(chain, 'undefined', { get: function () { return check(actual === undefined, 'to be undefined'); } });
    Object.defineProperty(chain, 'empty', { get: function () { return check(actual != null && (actual.length === 0 || (typeof actual === 'object' && Object.keys(actual).length === 0)), 'to be empty'); } });
    Object.defineProperty(chain, 'exist', { get: function () { return check(actual != null, 'to exist'); } });
    return chain;
  }
  var chai = { expect: expect, assert: nodeAssert };

  var currentResponse;
  function kulalaAssert(v, m) { nodeAssert(v, m); }
  kulalaAssert.true = function (v, m) { nodeAssert.strictEqual(v, true, m); };
  kulalaAssert.false = function (v, m) { nodeAssert.strictEqual(v, false, m); };
  kulalaAssert.same = function (a, b, m) { nodeAssert.deepEqual(a, b, m); };
  kulalaAssert.hasString = function (s, sub, m) { nodeAssert(String(s).indexOf(sub) >= 0, m === undefined ? fmt(s) + ' contains ' + fmt(sub) : m); };
  kulalaAssert.responseHas = function (key, value, m) { nodeAssert(currentResponse && same(currentResponse[key], value), m === undefined ? 'response.' + key + ' is ' + fmt(value) : m); };
  kulalaAssert.headersHas = function (name, value, m) { var v = currentResponse && currentResponse.headers.valueOf(name); nodeAssert(v === value, m === undefined ? 'header ' + name + ' is ' + fmt(value) : m); };
  kulalaAssert.bodyHas = function (sub, m) { var b = currentResponse && currentResponse.body; nodeAssert((typeof b === 'string' ? b : fmt(b)).indexOf(sub) >= 0, m === undefined ? 'body contains ' + fmt(sub) : m); };
  kulalaAssert.jsonHas = function (key, value, m) { var b = currentResponse && currentResponse.body, cur = b; String(key).split('.').forEach(function (p) { cur = cur == null ? undefined : cur[p]; }); nodeAssert(same(cur, value), m === undefined ? 'json ' + key + ' is ' + fmt(value) : m); };
  // kulala's client.assert.true(…) / .same(…): the same helpers under JetBrains' client.assert(condition).
  Object.keys(kulalaAssert).forEach(function (k) { clientAssert[k] = kulalaAssert[k]; });

  // httpyac gives scripts uuid without installing it; v4 is crypto.randomUUID.
  var uuidModule = { v4: function () { return call('uuid'); } };
  var PURE = { assert: nodeAssert, 'node:assert': nodeAssert, 'assert/strict': nodeAssert, 'node:assert/strict': nodeAssert, chai: chai, crypto: nodeCrypto, 'node:crypto': nodeCrypto, uuid: uuidModule };
  function sandboxRequire(name) {
    if (Object.prototype.hasOwnProperty.call(PURE, name)) return PURE[name];
    if (node) return node.require(name);
    needsNode("require('" + String(name) + "')");
  }

  // ---- timers: run in order of due time, on the real clock, inside the script's time limit ----
  // A timer that is not due yet makes tick() answer how many ms are left: the host really waits
  // (sleep(1000) takes a second, as in httpyac), or refuses when that is past the time limit.
  var timers = [], timerSeq = 0;
  function addTimer(fn, ms, repeat) {
    if (typeof fn !== 'function') unsupported('setTimeout with a string');
    var wait = Math.max(0, Number(ms) || 0);
    var t = { id: ++timerSeq, fn: fn, at: Date.now() + wait, every: repeat ? Math.max(1, wait) : 0 };
    timers.push(t);
    return t.id;
  }
  function clearTimer(id) { timers = timers.filter(function (t) { return t.id !== id; }); }
  function tick() {
    if (!timers.length) return false;
    timers.sort(function (a, b) { return a.at - b.at || a.id - b.id; });
    var left = timers[0].at - Date.now();
    if (left > 0) return left;
    var t = timers.shift();
    if (t.every) { t.at = Date.now() + t.every; timers.push(t); }
    t.fn();
    return true;
  }

  // ---- Buffer: the common conversions (Buffer.from(text).toString('base64') and back), bytes kept as base64 ----
  function SandboxBuffer() { unsupported('new Buffer() (use Buffer.from)'); }
  function makeBuffer(b64) {
    var b = Object.create(SandboxBuffer.prototype);
    b.b64 = b64;
    b.length = Math.floor(b64.length * 3 / 4) - (b64.slice(-2) === '==' ? 2 : b64.slice(-1) === '=' ? 1 : 0);
    return b;
  }
  SandboxBuffer.prototype.toString = function (encoding) { return call('recode', this.b64, 'base64', encoding || 'utf8'); };
  SandboxBuffer.prototype.toJSON = function () { return { type: 'Buffer', base64: this.b64 }; };
  SandboxBuffer.from = function (value, encoding) {
    if (value instanceof SandboxBuffer) return makeBuffer(value.b64);
    if (typeof value === 'string') return makeBuffer(call('recode', value, encoding || 'utf8', 'base64'));
    if (value && typeof value.length === 'number') {
      var hex = '';
      for (var i = 0; i < value.length; i++) hex += ('0' + (Number(value[i]) & 255).toString(16)).slice(-2);
      return makeBuffer(call('recode', hex, 'hex', 'base64'));
    }
    unsupported('Buffer.from(' + typeof value + ')');
  };
  SandboxBuffer.isBuffer = function (value) { return value instanceof SandboxBuffer; };
  SandboxBuffer.byteLength = function (value, encoding) { return SandboxBuffer.from(value, encoding).length; };
  SandboxBuffer.concat = function (list) {
    var hex = '';
    for (var i = 0; i < list.length; i++) hex += SandboxBuffer.from(list[i]).toString('hex');
    return makeBuffer(call('recode', hex, 'hex', 'base64'));
  };
  if (typeof G.btoa !== 'function') G.btoa = function (s) { return call('recode', String(s), 'latin1', 'base64'); };
  if (typeof G.atob !== 'function') G.atob = function (s) { return call('recode', String(s), 'base64', 'latin1'); };

  // ---- URL and URLSearchParams: WHATWG parsing by the host (pure: text in, parts out) ----
  function urlCall(op, a, b, c) {
    try { return call(op, a, b, c); } catch (e) { throw new TypeError(op === 'url' ? 'Invalid URL' : String(e.message)); }
  }
  function SandboxURLSearchParams(init) {
    if (!(this instanceof SandboxURLSearchParams)) throw new TypeError("Class constructor URLSearchParams cannot be invoked without 'new'");
    Object.defineProperty(this, '__url', { value: null, writable: true });
    var pairs = [];
    if (typeof init === 'string') pairs = urlCall('params', init);
    else if (init instanceof SandboxURLSearchParams) pairs = init.__pairs.map(function (p) { return [p[0], p[1]]; });
    else if (Array.isArray(init)) pairs = init.map(function (p) { return [String(p[0]), String(p[1])]; });
    else if (init && typeof init === 'object') pairs = Object.keys(init).map(function (k) { return [k, String(init[k])]; });
    Object.defineProperty(this, '__pairs', { value: pairs, writable: true });
  }
  var SP = SandboxURLSearchParams.prototype;
  SP.__changed = function () { if (this.__url) this.__url.__parts = urlCall('urlSet', this.__url.__parts.href, 'search', this.toString()); };
  SP.toString = function () { return urlCall('paramsText', this.__pairs); };
  SP.get = function (n) { for (var i = 0; i < this.__pairs.length; i++) if (this.__pairs[i][0] === String(n)) return this.__pairs[i][1]; return null; };
  SP.getAll = function (n) { return this.__pairs.filter(function (p) { return p[0] === String(n); }).map(function (p) { return p[1]; }); };
  SP.has = function (n) { return this.get(n) !== null; };
  SP.append = function (n, v) { this.__pairs.push([String(n), String(v)]); this.__changed(); };
  SP['delete'] = function (n) { this.__pairs = this.__pairs.filter(function (p) { return p[0] !== String(n); }); this.__changed(); };
  SP.set = function (n, v) {
    var at = -1, name = String(n);
    this.__pairs = this.__pairs.filter(function (p, i) { if (p[0] !== name) return true; if (at < 0) { at = i; return true; } return false; });
    if (at < 0) this.__pairs.push([name, String(v)]); else this.__pairs[at] = [name, String(v)];
    this.__changed();
  };
  SP.sort = function () { this.__pairs = this.__pairs.map(function (p, i) { return [p, i]; }).sort(function (a, b) { return a[0][0] < b[0][0] ? -1 : a[0][0] > b[0][0] ? 1 : a[1] - b[1]; }).map(function (x) { return x[0]; }); this.__changed(); };
  SP.forEach = function (fn, self) { var list = this.__pairs.slice(); for (var i = 0; i < list.length; i++) fn.call(self, list[i][1], list[i][0], this); };
  SP.entries = function () { return this.__pairs.map(function (p) { return [p[0], p[1]]; })[Symbol.iterator](); };
  SP.keys = function () { return this.__pairs.map(function (p) { return p[0]; })[Symbol.iterator](); };
  SP.values = function () { return this.__pairs.map(function (p) { return p[1]; })[Symbol.iterator](); };
  SP[Symbol.iterator] = SP.entries;
  Object.defineProperty(SP, 'size', { get: function () { return this.__pairs.length; } });
  function SandboxURL(input, base) {
    if (!(this instanceof SandboxURL)) throw new TypeError("Class constructor URL cannot be invoked without 'new'");
    Object.defineProperty(this, '__parts', { value: urlCall('url', String(input), base === undefined ? null : String(base)), writable: true });
    var params = new SandboxURLSearchParams(this.__parts.search);
    params.__url = this;
    Object.defineProperty(this, 'searchParams', { value: params });
  }
  ['href', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'hash', 'origin'].forEach(function (field) {
    Object.defineProperty(SandboxURL.prototype, field, {
      get: function () { return this.__parts[field]; },
      set: function (value) {
        if (field === 'origin') return;
        this.__parts = urlCall('urlSet', this.__parts.href, field, String(value));
        this.searchParams.__pairs = urlCall('params', this.__parts.search);
      },
      enumerable: true,
      configurable: true
    });
  });
  SandboxURL.prototype.toString = SandboxURL.prototype.toJSON = function () { return this.__parts.href; };
  SandboxURL.canParse = function (input, base) { try { new SandboxURL(input, base); return true; } catch (e) { return false; } };

  G.jsonPath = function (value, path) { return call('jsonPath', value === undefined ? null : value, String(path)); };
  G.crypto = nodeCrypto;
  G.$random = random;
  G.assert = kulalaAssert;
  G.expect = expect;
  G.require = sandboxRequire;
  if (!node) {
    G.setTimeout = function (fn, ms) { return addTimer(fn, ms, false); };
    G.setInterval = function (fn, ms) { return addTimer(fn, ms, true); };
    G.clearTimeout = G.clearInterval = clearTimer;
    G.setImmediate = function (fn) { return addTimer(fn, 0, false); };
    G.queueMicrotask = function (fn) { Promise.resolve().then(fn); };
    Object.defineProperty(G, 'process', { get: function () { needsNode('process'); } });
    G.Buffer = SandboxBuffer;
    G.URL = SandboxURL;
    G.URLSearchParams = SandboxURLSearchParams;
    ['fetch', 'WebSocket', 'websocket', 'XMLHttpRequest'].forEach(function (name) {
      Object.defineProperty(G, name, { get: function () { unsupported(name); } });
    });
  }

  function consoleOf() { return { log: log, info: log, warn: log, error: log, debug: log }; }
  return {
    run: function (fn, dataJson) {
      var data = JSON.parse(dataJson);
      pending = [];
      timers = [];
      var response = data.response ? makeResponse(data.response) : undefined;
      currentResponse = response;
      scriptRequestData = data.request;
      var promise = fn(client, makeRequest(data.request), response, consoleOf());
      return promise.then(function () { return Promise.all(pending); }).then(function () { return null; });
    },
    evaluate: function (fn, dataJson) {
      var data = JSON.parse(dataJson);
      var response = makeResponse(data.response);
      currentResponse = response;
      var value = fn(response);
      return value === undefined ? 'undefined' : JSON.stringify({ value: value });
    },
    tick: tick
  };
})`;

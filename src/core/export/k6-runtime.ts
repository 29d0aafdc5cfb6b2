/**
 * The runtime that `dial export k6` writes into every script after the requests (which it writes
 * as data). It is plain JavaScript for k6's engine: no Node API, no optional chaining or `??`,
 * so it runs on older k6 releases too. It resolves `{{…}}` as dial does (a variable's value may
 * hold more `{{…}}`), reads request references from earlier responses of the same iteration,
 * and applies `??` assertions with dial's predicates: tests/core/export/k6-runtime.test.ts
 * checks the predicates against src/core/assert/predicates.ts so the two cannot drift.
 */
export const K6_RUNTIME = String.raw`
function DialK6Error(message) { this.name = 'DialK6Error'; this.message = message; }
DialK6Error.prototype = Object.create(Error.prototype);

function hasOwn(object, key) { return Object.prototype.hasOwnProperty.call(object, key); }

function randomInt(min, max) { return min + Math.floor(Math.random() * (max - min)); }
function randomText(alphabet, length) {
  var out = '';
  for (var i = 0; i < length; i++) out += alphabet[randomInt(0, alphabet.length)];
  return out;
}
function uuid() {
  var hex = randomText('0123456789abcdef', 32).split('');
  hex[12] = '4';
  hex[16] = '89ab'[randomInt(0, 4)];
  var s = hex.join('');
  return s.slice(0, 8) + '-' + s.slice(8, 12) + '-' + s.slice(12, 16) + '-' + s.slice(16, 20) + '-' + s.slice(20);
}
var LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

function dynamicValue(expression, where) {
  var parts = expression.split(/\s+/);
  var name = parts[0];
  switch (name) {
    case '$uuid': case '$guid': case '$random.uuid': return uuid();
    case '$timestamp': return String(Math.floor(Date.now() / 1000));
    case '$isoTimestamp': return new Date().toISOString();
    case '$datetime': return parts[1] === 'rfc1123' ? new Date().toUTCString() : new Date().toISOString();
    case '$randomInt': return String(parts.length >= 3 ? randomInt(Number(parts[1]), Number(parts[2])) : randomInt(0, 1000));
    case '$processEnv': case '$dotenv': return environmentValue(parts[1], where);
    case '$random.email': return randomText(LETTERS.toLowerCase(), 8) + '@example.com';
  }
  if (name.indexOf('$env.') === 0) return environmentValue(name.slice(5), where);
  var call = /^\$random\.(integer|float|alphabetic|alphanumeric|hexadecimal)\(([^)]*)\)$/.exec(expression.replace(/\s+/g, ''));
  var numbers = call && call[2] ? call[2].split(',').map(Number) : [];
  switch (call && call[1]) {
    case 'integer': return String(randomInt(numbers.length ? numbers[0] : 0, numbers.length > 1 ? numbers[1] : 1000));
    case 'float': { var from = numbers.length ? numbers[0] : 0; var to = numbers.length > 1 ? numbers[1] : 1000; return String(from + Math.random() * (to - from)); }
    case 'alphabetic': return randomText(LETTERS, numbers.length ? numbers[0] : 10);
    case 'alphanumeric': return randomText(LETTERS + '0123456789_', numbers.length ? numbers[0] : 10);
    case 'hexadecimal': return randomText('0123456789abcdef', numbers.length ? numbers[0] : 10);
  }
  throw new DialK6Error('unknown dynamic variable {{' + expression + '}} (' + where + ')');
}

function environmentValue(name, where) {
  if (hasOwn(__ENV, name)) return __ENV[name];
  throw new DialK6Error("'" + name + "' is not set (" + where + '): pass it with k6 run -e ' + name + '=...');
}

function findPlaceholders(text) {
  var found = [];
  var at = text.indexOf('{{');
  while (at >= 0) {
    var close = text.indexOf('}}', at + 2);
    if (close < 0) break;
    var open = at;
    while (text.charCodeAt(open + 2) === 123 && open + 3 < close) open++;
    found.push({ start: open, end: close + 2, expression: text.slice(open + 2, close).trim() });
    at = text.indexOf('{{', close + 2);
  }
  return found;
}

function Scope(file, request, state) {
  this.file = file;
  this.request = request;
  this.state = state;
  this.where = "request '" + request.label + "' (" + file.path + ':' + request.line + ')';
}

Scope.prototype.resolve = function (text, chain) {
  var placeholders = findPlaceholders(text);
  if (placeholders.length === 0) return text;
  var out = '';
  var at = 0;
  for (var i = 0; i < placeholders.length; i++) {
    out += text.slice(at, placeholders[i].start) + this.expression(placeholders[i].expression, chain || []);
    at = placeholders[i].end;
  }
  return out + text.slice(at);
};

Scope.prototype.expression = function (expression, chain) {
  if (expression.charAt(0) === '$') return dynamicValue(expression, this.where);
  if (hasOwn(__ENV, expression)) return __ENV[expression];
  if (hasOwn(this.state.globals, expression)) return this.state.globals[expression];
  var reference = /^([^.\s{}]+)\.(request|response)\.(body|headers)(?:\.(.+))?$/.exec(expression);
  if (reference && hasOwn(this.state.exchanges, reference[1])) return referenceValue(this.state.exchanges[reference[1]], reference, this.where);
  if (chain.indexOf(expression) >= 0) throw new DialK6Error('variable cycle: ' + chain.concat([expression]).join(' -> ') + ' (' + this.where + ')');
  var template = hasOwn(this.request.fileVariables, expression) ? this.request.fileVariables[expression]
    : hasOwn(ENVIRONMENT.values, expression) ? ENVIRONMENT.values[expression] : undefined;
  if (template !== undefined) return this.resolve(template, chain.concat([expression]));
  if (ENVIRONMENT.secrets.indexOf(expression) >= 0) {
    throw new DialK6Error("'" + expression + "' is a secret and is not written into the script (" + this.where + '): pass it with k6 run -e ' + expression + '=...');
  }
  if (reference) throw new DialK6Error("{{" + expression + "}}: request '" + reference[1] + "' has not run before " + this.where);
  throw new DialK6Error("variable '" + expression + "' is not defined (" + this.where + '): pass it with k6 run -e ' + expression + '=...');
};

function headerValues(headers, name) {
  var wanted = name.toLowerCase();
  var values = [];
  for (var key in headers) {
    if (key.toLowerCase() !== wanted) continue;
    var value = headers[key];
    values = values.concat(Array.isArray(value) ? value : [value]);
  }
  return values;
}

function jsonPathSteps(path) {
  var steps = [];
  var pattern = /\.([^.[\]]+)|\[(\d+)\]|\['([^']*)'\]|\["([^"]*)"\]/g;
  var rest = path.slice(1);
  var match;
  var consumed = 0;
  while ((match = pattern.exec(rest)) !== null) {
    if (match.index !== consumed) return undefined;
    consumed = pattern.lastIndex;
    steps.push(match[2] !== undefined ? Number(match[2]) : match[1] !== undefined ? match[1] : match[3] !== undefined ? match[3] : match[4]);
  }
  return consumed === rest.length ? steps : undefined;
}

function queryJson(value, path) {
  var steps = jsonPathSteps(path);
  if (!steps) throw new DialK6Error('JSONPath ' + path + ' is not supported in k6 scripts');
  for (var i = 0; i < steps.length; i++) {
    if (value === null || typeof value !== 'object' || !hasOwn(value, steps[i])) return undefined;
    value = value[steps[i]];
  }
  return value;
}

function valueText(value) { return typeof value === 'string' ? value : JSON.stringify(value); }

function referenceValue(exchange, reference, where) {
  var side = exchange[reference[2]];
  var path = reference[4] === undefined ? '*' : reference[4];
  if (reference[3] === 'headers') {
    var values = headerValues(side.headers, path);
    if (values.length === 0) throw new DialK6Error('{{' + reference[0] + '}}: no header ' + path + ' (' + where + ')');
    return values.join(', ');
  }
  var text = side.body === null || side.body === undefined ? '' : String(side.body);
  if (path === '*') return text;
  var found = queryJson(JSON.parse(text), path);
  if (found === undefined) throw new DialK6Error('{{' + reference[0] + '}}: ' + path + ' matched nothing (' + where + ')');
  return valueText(found);
}

function deepEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return a !== a && b !== b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  var ka = Object.keys(a);
  var kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (var i = 0; i < ka.length; i++) if (!hasOwn(b, ka[i]) || !deepEqual(a[ka[i]], b[ka[i]])) return false;
  return true;
}

function looseEqual(actual, expected) {
  if (deepEqual(actual, expected)) return true;
  var ta = typeof actual;
  var te = typeof expected;
  if (ta === 'string' && (te === 'number' || te === 'boolean' || expected === null)) return actual === String(expected);
  if (te === 'string' && (ta === 'number' || ta === 'boolean' || actual === null)) return String(actual) === expected;
  return false;
}

function asNumber(value) {
  return typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
}

function compareWith(op, actual, expected) {
  if (op === '==') return looseEqual(actual, expected);
  if (op === '!=') return !looseEqual(actual, expected);
  var a = asNumber(actual);
  var e = asNumber(expected);
  if (a !== a || e !== e) {
    if (typeof actual !== 'string' || typeof expected !== 'string') return false;
    a = actual;
    e = expected;
  }
  switch (op) {
    case '<': return a < e;
    case '<=': return a <= e;
    case '>': return a > e;
    case '>=': return a >= e;
  }
  return false;
}

function asText(value) { return typeof value === 'string' ? value : value === undefined ? '' : String(JSON.stringify(value)); }

function toRegExp(text) {
  var match = /^\/([\s\S]*)\/([dgimsuyv]*)$/.exec(text.trim());
  return match ? new RegExp(match[1], match[2].replace(/[gy]/g, '')) : new RegExp(text.trim());
}

function lengthOf(value) {
  if (typeof value === 'string' || Array.isArray(value)) return value.length;
  if (value !== null && typeof value === 'object') return Object.keys(value).length;
  return undefined;
}

function parseExpected(text) {
  var trimmed = text.trim();
  if (trimmed === '') return '';
  try { return JSON.parse(trimmed); } catch (error) { return trimmed; }
}

function applyPredicate(predicate, actual, expected, expectedText, lengthOperator) {
  switch (predicate) {
    case '==': case '!=': case '<': case '<=': case '>': case '>=': return compareWith(predicate, actual, expected);
    case 'contains':
      if (Array.isArray(actual)) return actual.some(function (item) { return looseEqual(item, expected); });
      if (actual !== null && typeof actual === 'object' && typeof expected === 'string') return hasOwn(actual, expected);
      return actual !== undefined && asText(actual).indexOf(asText(expected)) >= 0;
    case 'startsWith': return actual !== undefined && asText(actual).indexOf(asText(expected)) === 0;
    case 'endsWith': { var t = asText(actual); var s = asText(expected); return actual !== undefined && t.length >= s.length && t.slice(t.length - s.length) === s; }
    case 'matches': return actual !== undefined && toRegExp(expectedText).test(asText(actual));
    case 'exists': return actual !== undefined;
    case 'isNumber': return typeof actual === 'number' && isFinite(actual);
    case 'isString': return typeof actual === 'string';
    case 'isBoolean': return typeof actual === 'boolean';
    case 'isArray': return Array.isArray(actual);
    case 'isObject': return actual !== null && typeof actual === 'object' && !Array.isArray(actual);
    case 'isNull': return actual === null;
    case 'isEmpty': return actual === undefined || actual === null || lengthOf(actual) === 0;
    case 'isTrue': return !!actual;
    case 'isFalse': return !actual;
    case 'length': { var length = lengthOf(actual); return length !== undefined && compareWith(lengthOperator || '==', length, expected); }
  }
  throw new DialK6Error('unknown predicate ' + predicate);
}

var STRING_PREDICATES = ['contains', 'startsWith', 'endsWith', 'matches'];

function responseJson(response) {
  var text = response.body === null || response.body === undefined ? '' : String(response.body);
  var type = String(headerValues(response.headers, 'content-type')[0] || '').split(';')[0].trim().toLowerCase();
  var first = text.replace(/^\s+/, '').charAt(0);
  if (!(type === 'application/json' || /[+/]json$/.test(type) || first === '{' || first === '[')) return undefined;
  try { return JSON.parse(text); } catch (error) { return undefined; }
}

function bodyActual(assertion, response) {
  var text = response.body === null || response.body === undefined ? '' : String(response.body);
  var json = responseJson(response);
  if (assertion.argument !== undefined) {
    if (json === undefined) throw new DialK6Error("the body is not JSON, so '" + assertion.argument + "' has no value");
    return queryJson(json, assertion.argument);
  }
  if (STRING_PREDICATES.indexOf(assertion.predicate) >= 0 || json === undefined) return text;
  if (assertion.predicate === '==' || assertion.predicate === '!=') {
    var expected = parseExpected(assertion.expected || '');
    if (typeof expected !== 'object' || expected === null) return text;
  }
  return json;
}

function assertionActual(assertion, response) {
  switch (assertion.query) {
    case 'status': return response.status;
    case 'duration': return Math.round(response.timings.duration);
    case 'header': { var values = headerValues(response.headers, assertion.argument); return values.length ? values.join(', ') : undefined; }
  }
  return bodyActual(assertion, response);
}

function assertionPasses(assertion, response, scope) {
  try {
    var expectedText = assertion.expected === undefined ? '' : scope.resolve(assertion.expected);
    var expected = assertion.predicate === 'matches' ? expectedText : parseExpected(expectedText);
    var passed = applyPredicate(assertion.predicate, assertionActual(assertion, response), expected, expectedText, assertion.lengthOperator);
    return assertion.not ? !passed : passed;
  } catch (error) {
    console.error(scope.where + ': ' + assertion.source + ': ' + error.message);
    return false;
  }
}

function requestBody(request, scope) {
  var body = request.body;
  if (!body) return null;
  if (body.kind === 'file') return body.substitute ? scope.resolve(String(BODY_FILES[body.path])) : BODY_FILES[body.path];
  return scope.resolve(body.text);
}

function headerObject(request, scope) {
  var headers = {};
  for (var i = 0; i < request.headers.length; i++) {
    var name = request.headers[i][0];
    var value = scope.resolve(request.headers[i][1]);
    headers[name] = hasOwn(headers, name) ? headers[name] + ', ' + value : value;
  }
  return headers;
}

function sendOne(file, request, state) {
  var scope = new Scope(file, request, state);
  var url = scope.resolve(request.url);
  var headers = headerObject(request, scope);
  var body = requestBody(request, scope);
  var params = { headers: headers, tags: { name: request.label, file: file.path } };
  if (request.tags.length) params.tags.dial_tags = request.tags.join(' ');
  if (request.timeout) params.timeout = request.timeout;
  if (request.noRedirect) params.redirects = 0;
  if (request.noCookieJar) params.jar = new http.CookieJar();
  var response = http.request(request.method, url, body, params);
  var exchange = { request: { headers: headers, body: body }, response: response };
  if (request.name) state.exchanges[request.name] = exchange;
  var checks = {};
  request.assertions.forEach(function (assertion) {
    checks[request.label + ': ' + assertion.source] = function (r) { return assertionPasses(assertion, r, scope); };
  });
  if (request.assertions.length) check(response, checks, params.tags);
  return response;
}

function runIteration() {
  var state = { globals: {}, exchanges: {} };
  for (var f = 0; f < FILES.length; f++) {
    for (var r = 0; r < FILES[f].requests.length; r++) sendOne(FILES[f], FILES[f].requests[r], state);
  }
}
`;

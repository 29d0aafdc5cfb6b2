// k6/http as far as exported scripts use it: request(method, url, body, params) and CookieJar.
import { execFileSync } from 'node:child_process';

const fetchOne = new URL('./fetch-one.mjs', import.meta.url).pathname;

// k6 shows response header names canonicalised (Content-Type).
const canonical = (name) => name.replace(/(^|-)([a-z])/g, (_, dash, letter) => dash + letter.toUpperCase());

function bodyBase64(body) {
  if (body === null || body === undefined) return null;
  if (body instanceof ArrayBuffer) return Buffer.from(body).toString('base64');
  return Buffer.from(String(body), 'utf8').toString('base64');
}

export default {
  CookieJar: class CookieJar {},
  request(method, url, body, params = {}) {
    const input = JSON.stringify({ method, url, headers: params.headers ?? {}, body: bodyBase64(body) });
    const answer = JSON.parse(
      execFileSync(process.execPath, [fetchOne], { input, maxBuffer: 64 * 1024 * 1024 }).toString('utf8'),
    );
    const headers = {};
    for (const [name, value] of Object.entries(answer.headers))
      headers[canonical(name)] = Array.isArray(value) ? value.join(', ') : value;
    const sentBody =
      body === null || body === undefined ? null : Buffer.from(bodyBase64(body), 'base64').toString('utf8');
    globalThis.__k6Requests.push({
      method,
      url,
      headers: params.headers ?? {},
      body: sentBody,
      tags: params.tags,
      redirects: params.redirects,
      timeout: params.timeout,
    });
    return {
      status: answer.status,
      headers,
      body: answer.body,
      timings: { duration: answer.duration },
      error: answer.error ?? '',
    };
  },
};

// kulala / httpyac `Authorization: AWS key secret token:… region:… service:…` through the built CLI,
// against a local server that checks the signature the way an AWS service does: it rebuilds the
// canonical request from what arrived on the wire (method, raw target, the headers the client says it
// signed, the body) and compares the HMAC chain of the secret it knows
// (https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html).
import { createHash, createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startHttpServer, readBody, type TestServer } from '../helpers/servers.js';

const KEY = 'AKIDLOCALTEST';
const SECRET = 'local/secret+KEY';
const TOKEN = 'session-token-123';

const unreserved = (text: string, slash: boolean) =>
  [...Buffer.from(text)]
    .map((b) => {
      const c = String.fromCharCode(b);
      return /[A-Za-z0-9\-._~]/.test(c) || (slash && c === '/')
        ? c
        : '%' + b.toString(16).toUpperCase().padStart(2, '0');
    })
    .join('');

interface Verdict {
  ok: boolean;
  why?: string;
  signedHeaders?: string[];
  token?: string;
  body?: string;
}

function verify(request: IncomingMessage, body: Buffer): Verdict {
  const auth =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      request.headers.authorization ?? '',
    );
  if (!auth) return { ok: false, why: `malformed Authorization: ${request.headers.authorization}` };
  const [, key, day, region, service, signedList, signature] = auth;
  if (key !== KEY) return { ok: false, why: 'unknown key' };
  const date = String(request.headers['x-amz-date'] ?? '');
  if (!date.startsWith(day)) return { ok: false, why: 'x-amz-date does not match the credential scope' };
  const at = Date.parse(date.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
  if (!(Math.abs(Date.now() - at) < 5 * 60_000)) return { ok: false, why: 'x-amz-date is not now' };
  const signed = signedList.split(';');
  if (!signed.includes('host') || !signed.includes('x-amz-date')) return { ok: false, why: 'host/x-amz-date unsigned' };
  const [path, query = ''] = (request.url ?? '/').split('?');
  const canonicalQuery = query
    .split('&')
    .filter(Boolean)
    .map((pair) => pair.split('=').map((part) => unreserved(decodeURIComponent(part), false)))
    .map(([name, value = '']) => `${name}=${value}`)
    .sort()
    .join('&');
  const headerLines = signed.map((name) => {
    const values: string[] = [];
    for (let i = 0; i < request.rawHeaders.length; i += 2)
      if (request.rawHeaders[i].toLowerCase() === name)
        values.push(request.rawHeaders[i + 1].trim().replace(/\s+/g, ' '));
    return `${name}:${values.join(',')}\n`;
  });
  const canonical = [
    request.method,
    service === 's3' ? path : unreserved(path, true),
    canonicalQuery,
    headerLines.join(''),
    signedList,
    createHash('sha256').update(body).digest('hex'),
  ].join('\n');
  const scope = `${day}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', date, scope, createHash('sha256').update(canonical).digest('hex')].join('\n');
  let signingKey: Buffer = Buffer.from(`AWS4${SECRET}`);
  for (const part of [day, region, service, 'aws4_request'])
    signingKey = createHmac('sha256', signingKey).update(part).digest();
  const expected = createHmac('sha256', signingKey).update(toSign).digest('hex');
  if (expected !== signature) return { ok: false, why: `signature mismatch; canonical request:\n${canonical}` };
  return {
    ok: true,
    signedHeaders: signed,
    token: request.headers['x-amz-security-token'] as string | undefined,
    body: body.toString(),
  };
}

let server: TestServer;
const verdicts: Verdict[] = [];

beforeAll(async () => {
  server = await startHttpServer((request, response) => {
    void readBody(request).then((body) => {
      const verdict = verify(request, body);
      verdicts.push(verdict);
      response.writeHead(verdict.ok ? 200 : 403, { 'content-type': 'application/json' });
      response.end(JSON.stringify(verdict));
    });
  });
});
afterAll(() => server.close());

function workspace(text: string): string {
  const root = tempDir('dial-aws-');
  mkdirSync(join(root, '.git'));
  writeFileSync(join(root, 'api.http'), text.replaceAll('ORIGIN', server.url));
  return root;
}

describe('AWS Signature v4 (kulala, httpyac)', () => {
  it('signs a GET with a query and a POST with a JSON body and a session token; the server accepts both', async () => {
    const root = workspace(
      [
        '@key = ' + KEY,
        '@secret = ' + SECRET,
        '',
        '### list',
        'GET ORIGIN/items/a%20b?z=1&a=x y&a=0',
        'Authorization: AWS {{key}} {{secret}} region:eu-west-1 service:execute-api',
        '',
        '### create',
        'POST ORIGIN/items',
        'Content-Type: application/json',
        'X-Custom:   spaced    value ',
        `Authorization: AWS {{key}} {{secret}} token:${TOKEN} region:us-east-1 service:s3`,
        '',
        '{"name": "ada", "n": 1}',
        '',
        '?? status == 200',
        '',
      ].join('\n'),
    );
    verdicts.length = 0;
    const result = await runCli(['run', 'api.http', '--reporter', 'json'], { cwd: root });
    expect(verdicts.map((v) => v.why ?? 'ok')).toEqual(['ok', 'ok']);
    expect(result.code).toBe(0);
    expect(verdicts[0].signedHeaders).toEqual(['host', 'x-amz-date']);
    expect(verdicts[1].signedHeaders).toEqual([
      'content-type',
      'host',
      'x-amz-content-sha256',
      'x-amz-date',
      'x-amz-security-token',
      'x-custom',
    ]);
    expect(verdicts[1].token).toBe(TOKEN);
    expect(verdicts[1].body).toBe('{"name": "ada", "n": 1}');
    // The secret never reaches the output.
    expect(result.stdout + result.stderr).not.toContain(SECRET);
  });

  it('signs a request written without variables (the executor plain path) too', async () => {
    const root = workspace(
      ['GET ORIGIN/plain', `Authorization: AWS ${KEY} ${SECRET} region:eu-west-1 service:sqs`, ''].join('\n'),
    );
    verdicts.length = 0;
    const result = await runCli(['run', 'api.http'], { cwd: root });
    expect(verdicts.map((v) => v.why ?? 'ok')).toEqual(['ok']);
    expect(result.code).toBe(0);
  });

  it('a tampered signature is refused by the same server (the check is real)', async () => {
    const response = await fetch(`${server.url}/x`, {
      headers: {
        'x-amz-date': new Date()
          .toISOString()
          .replace(/[-:]/g, '')
          .replace(/\.\d{3}/, ''),
        authorization: `AWS4-HMAC-SHA256 Credential=${KEY}/20990101/us-east-1/s/aws4_request, SignedHeaders=host;x-amz-date, Signature=${'0'.repeat(64)}`,
      },
    });
    expect(response.status).toBe(403);
  });

  it('a non-AWS host without region:/service: is refused before sending, at the header line', async () => {
    const root = workspace(['GET ORIGIN/x', `Authorization: AWS ${KEY} ${SECRET}`, ''].join('\n'));
    verdicts.length = 0;
    const result = await runCli(['run', 'api.http'], { cwd: root });
    expect(result.code).not.toBe(0);
    expect(verdicts).toEqual([]);
    expect(result.stdout + result.stderr).toContain('(api.http:2)');
    expect(result.stdout + result.stderr).toContain('region:<region> service:<service>');
  });

  it('a stray word on the AWS line is refused by dial check and run, at its line', async () => {
    const root = workspace(['GET ORIGIN/x', `Authorization: AWS ${KEY} ${SECRET} zone:eu`, ''].join('\n'));
    verdicts.length = 0;
    const check = await runCli(['check', 'api.http'], { cwd: root });
    expect(check.code).not.toBe(0);
    expect(check.stdout + check.stderr).toContain('api.http:2:1');
    const run = await runCli(['run', 'api.http'], { cwd: root });
    expect(run.code).not.toBe(0);
    expect(run.stdout + run.stderr).toContain('`zone:eu`');
    expect(verdicts).toEqual([]);
  });
});

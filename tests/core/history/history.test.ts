import { appendFileSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  appendHistory,
  clearHistory,
  HISTORY_BODY_LIMIT,
  readHistory,
  toHistoryEntry,
  trimHistory,
} from '../../../src/core/history/index.js';
import type { Exchange } from '../../../src/core/http/types.js';
import { MASK } from '../../../src/core/secrets.js';

const file = () => join(mkdtempSync(join(tmpdir(), 'dial-history-')), 'sub', 'history.jsonl');

function exchange(overrides: { url?: string; status?: number; body?: string } = {}): Exchange {
  const body = Buffer.from(overrides.body ?? '{"ok":true}');
  return {
    request: {
      method: 'POST',
      url: overrides.url ?? 'http://api.test/login?token=s3cr3t-value',
      headers: [
        ['Authorization', 'Bearer abc.def'],
        ['Cookie', 'sid=1'],
        ['Proxy-Authorization', 'Basic eHg6eXk='],
        ['X-Api-Key', 's3cr3t-value'],
      ],
      bodyPreview: '{"password":"s3cr3t-value"}',
      bodySize: 27,
    },
    response: {
      status: overrides.status ?? 200,
      statusText: 'OK',
      httpVersion: '1.1',
      headers: [
        ['Set-Cookie', 'sid=2; HttpOnly'],
        ['Content-Type', 'application/json'],
      ],
      url: 'http://api.test/login',
      body: { kind: 'memory', bytes: body },
      size: body.length,
    },
    timings: { dns: 1, connect: 1, tls: 0, firstByte: 2, total: 5 },
    redirects: [],
  };
}

describe('history entries', () => {
  it('masks sensitive headers and redacts secret values everywhere', () => {
    const entry = toHistoryEntry(exchange(), {
      secretValues: ['s3cr3t-value'],
      responseBody: Buffer.from('{"echo":"s3cr3t-value"}'),
    });
    const text = JSON.stringify(entry);
    expect(text).not.toContain('s3cr3t-value');
    expect(text).not.toContain('abc.def');
    expect(text).not.toContain('sid=1');
    expect(text).not.toContain('sid=2');
    expect(entry.exchange.request.headers).toEqual([
      ['Authorization', `Bearer ${MASK}`],
      ['Cookie', MASK],
      ['Proxy-Authorization', `Basic ${MASK}`],
      ['X-Api-Key', MASK],
    ]);
    expect(entry.exchange.request.url).toBe(`http://api.test/login?token=${MASK}`);
    expect(entry.exchange.response.body).toBe(`{"echo":"${MASK}"}`);
  });

  it('truncates bodies at 64 KiB (on a character boundary) and keeps binary as base64', () => {
    const big = 'é'.repeat(HISTORY_BODY_LIMIT); // 2 bytes each
    const entry = toHistoryEntry(exchange({ body: big }), { responseBody: Buffer.from(big) });
    expect(entry.exchange.response.bodyTruncated).toBe(true);
    expect(Buffer.byteLength(entry.exchange.response.body!)).toBeLessThanOrEqual(HISTORY_BODY_LIMIT);
    expect(entry.exchange.response.body).toMatch(/^é+$/);
    const binary = toHistoryEntry(exchange(), { responseBody: Buffer.from([0, 1, 2, 255]) });
    expect(binary.exchange.response).toMatchObject({ body: 'AAEC/w==', bodyEncoding: 'base64' });
  });
});

describe('history file', () => {
  it('is created with mode 0600 and read newest first', () => {
    const path = file();
    appendHistory(toHistoryEntry(exchange({ status: 200 })), { path, limit: 10 });
    appendHistory(toHistoryEntry(exchange({ status: 201 })), { path, limit: 10 });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readHistory({ path }).map((entry) => entry.exchange.response.status)).toEqual([201, 200]);
    expect(readHistory({ path, limit: 1 })).toHaveLength(1);
  });

  it('skips a torn last line, and the next append starts on a fresh line', () => {
    const path = file();
    appendHistory(toHistoryEntry(exchange({ status: 200 })), { path, limit: 10 });
    appendFileSync(path, '{"time":"2020-01-01T00:00:00.000Z","exchange":{"req');
    expect(readHistory({ path })).toHaveLength(1);
    appendHistory(toHistoryEntry(exchange({ status: 202 })), { path, limit: 10 });
    expect(readHistory({ path }).map((entry) => entry.exchange.response.status)).toEqual([202, 200]);
  });

  it('is trimmed atomically to the newest `limit` entries when its size crosses a check step', () => {
    const path = file();
    for (let i = 0; i < 12; i++)
      appendHistory(toHistoryEntry(exchange({ status: 200 + i })), { path, limit: 5, trimCheckBytes: 1 });
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(5);
    expect(readHistory({ path }).map((entry) => entry.exchange.response.status)).toEqual([211, 210, 209, 208, 207]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('does not re-read the file on every append: below the step nothing is trimmed', () => {
    const path = file();
    for (let i = 0; i < 8; i++)
      appendHistory(toHistoryEntry(exchange()), { path, limit: 5, trimCheckBytes: 10 * 1024 * 1024 });
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(8);
    trimHistory({ path, limit: 5 });
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(5);
  });

  it('limit 0 records nothing; clear removes everything', () => {
    const path = file();
    appendHistory(toHistoryEntry(exchange()), { path, limit: 0 });
    expect(readHistory({ path })).toEqual([]);
    appendHistory(toHistoryEntry(exchange()), { path, limit: 3 });
    clearHistory({ path });
    expect(readHistory({ path })).toEqual([]);
  });
});

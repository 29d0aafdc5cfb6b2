// The HTTP/1.1 response reader of the wire transport, fed bytes split at every offset: what it
// hands over must not depend on how the response arrived in reads.
import { describe, expect, it } from 'vitest';
import { ResponseReader, type ParsedHead } from '../../../src/core/http/http1-response.js';

interface Read {
  heads: ParsedHead[];
  body: string;
  ended: boolean;
  rest?: string;
}

/** Feeds `wire` in the given pieces (and a close when asked); answers what the reader handed over. */
function read(pieces: string[], options: { head?: boolean; close?: boolean } = {}): Read {
  const result: Read = { heads: [], body: '', ended: false };
  const reader = new ResponseReader(
    {
      head: (head) => result.heads.push(head),
      body: (chunk) => (result.body += chunk.toString('latin1')),
      end: (rest) => {
        result.ended = true;
        result.rest = rest?.toString('latin1');
      },
    },
    options.head ? 'HEAD' : 'GET',
  );
  for (const piece of pieces) reader.feed(Buffer.from(piece, 'latin1'));
  if (options.close) reader.close();
  return result;
}

/** Every way of cutting `wire` in two, plus byte by byte. */
function splits(wire: string): string[][] {
  const ways: string[][] = [[wire], [...wire]];
  for (let at = 1; at < wire.length; at++) ways.push([wire.slice(0, at), wire.slice(at)]);
  return ways;
}

function errorCode(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
}

describe('ResponseReader', () => {
  it('Content-Length: head, body and nothing past it, however the bytes are cut', () => {
    const wire = 'HTTP/1.1 201 Created\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nX-Empty:\r\n\r\nhello';
    for (const pieces of splits(wire)) {
      const result = read(pieces);
      expect(result.heads).toHaveLength(1);
      expect(result.heads[0]).toMatchObject({
        status: 201,
        statusText: 'Created',
        httpVersion: '1.1',
        keepAlive: true,
        headers: [
          ['Content-Type', 'text/plain'],
          ['Content-Length', '5'],
          ['X-Empty', ''],
        ],
      });
      expect(result.body).toBe('hello');
      expect(result.ended).toBe(true);
      expect(result.rest).toBeUndefined();
    }
  });

  it('chunked: extensions and trailers dropped, the body joined, however the bytes are cut', () => {
    const wire =
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n' +
      '5;name=value\r\nhello\r\n1A\r\n' +
      'abcdefghijklmnopqrstuvwxyz\r\n0\r\nX-Trailer: 1\r\n\r\n';
    for (const pieces of splits(wire)) {
      const result = read(pieces);
      expect(result.body).toBe('helloabcdefghijklmnopqrstuvwxyz');
      expect(result.ended).toBe(true);
      expect(result.heads[0].keepAlive).toBe(true);
    }
  });

  it('interim 1xx responses are skipped; the final one is handed over', () => {
    const wire =
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok';
    for (const pieces of splits(wire)) {
      const result = read(pieces);
      expect(result.heads.map((head) => head.status)).toEqual([200]);
      expect(result.body).toBe('ok');
    }
  });

  it('no body after HEAD, 204 and 304, whatever Content-Length says', () => {
    expect(read(['HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n'], { head: true })).toMatchObject({
      body: '',
      ended: true,
    });
    expect(read(['HTTP/1.1 204 No Content\r\n\r\n'])).toMatchObject({ body: '', ended: true });
    expect(read(['HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n'])).toMatchObject({ body: '', ended: true });
  });

  it('no framing: the body runs to the close, and the connection is not kept', () => {
    const result = read(['HTTP/1.1 200 OK\r\n\r\nsome', ' more'], { close: true });
    expect(result).toMatchObject({ body: 'some more', ended: true });
    expect(result.heads[0].keepAlive).toBe(false);
    const unknownCoding = read(['HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nraw'], { close: true });
    expect(unknownCoding).toMatchObject({ body: 'raw', ended: true });
  });

  it('keep-alive follows the version and Connection; Keep-Alive: timeout is read', () => {
    expect(read(['HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n']).heads[0].keepAlive).toBe(false);
    expect(read(['HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n']).heads[0].keepAlive).toBe(false);
    const kept = read([
      'HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nKeep-Alive: timeout=5, max=100\r\nContent-Length: 0\r\n\r\n',
    ]);
    expect(kept.heads[0]).toMatchObject({ keepAlive: true, keepAliveTimeoutMs: 5000, httpVersion: '1.0' });
  });

  it('bytes past the response are handed back, not read as body', () => {
    expect(read(['HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokEXTRA'])).toMatchObject({ body: 'ok', rest: 'EXTRA' });
  });

  it('a status line without a reason; obs-fold joined with a space', () => {
    const result = read(['HTTP/1.1 200\r\nX-Folded: one\r\n  two\r\nContent-Length: 0\r\n\r\n']);
    expect(result.heads[0]).toMatchObject({
      status: 200,
      statusText: '',
      headers: [
        ['X-Folded', 'one two'],
        ['Content-Length', '0'],
      ],
    });
  });

  it('a cut-off response is an error: before the head a hang-up, inside the body an abort', () => {
    expect(errorCode(() => read(['HTTP/1.1 200 OK\r\nContent-Le'], { close: true }))).toBe('ECONNRESET');
    expect(errorCode(() => read(['HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort'], { close: true }))).toBe(
      'ECONNRESET',
    );
    expect(
      errorCode(() => read(['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel'], { close: true })),
    ).toBe('ECONNRESET');
  });

  it('refuses what could be read as another response (response splitting) with llhttp codes', () => {
    const refused = (wire: string): string | undefined => errorCode(() => read([wire]));
    expect(refused('HTTP/1.1 200 OK\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n')).toBe(
      'HPE_UNEXPECTED_CONTENT_LENGTH',
    );
    expect(refused('HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n')).toBe(
      'HPE_UNEXPECTED_CONTENT_LENGTH',
    );
    expect(refused('HTTP/1.1 200 OK\r\nContent-Length: 1x\r\n\r\n')).toBe('HPE_INVALID_CONTENT_LENGTH');
    expect(refused('HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n')).toBe('HPE_INVALID_HEADER_TOKEN');
    expect(refused('HTTP/1.1 200 OK\nContent-Length: 0\r\n\r\n')).toBe('HPE_INVALID_STATUS');
    expect(refused('HTTP/1.1 200 OK\r\nA: 1\nContent-Length: 0\r\n\r\n')).toBe('HPE_INVALID_HEADER_TOKEN');
    expect(refused('HTTP/1.1 200 OK\r\nX: a\x01b\r\n\r\n')).toBe('HPE_INVALID_HEADER_TOKEN');
    expect(refused('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n')).toBe('HPE_INVALID_CHUNK_SIZE');
    expect(refused('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nokXX')).toBe('HPE_STRICT');
    expect(refused('SSH-2.0-OpenSSH_9.2\r\n\r\n')).toBe('HPE_INVALID_CONSTANT');
    expect(refused('HTTP/2 200\r\n\r\n')).toBe('HPE_INVALID_STATUS');
    // Identical repeated lengths are one length (RFC 9110, section 8.6).
    expect(read(['HTTP/1.1 200 OK\r\nContent-Length: 2, 2\r\n\r\nok']).body).toBe('ok');
  });

  it('an incomplete head that cannot be HTTP is refused without waiting for its end', () => {
    expect(errorCode(() => read(['SSH-2.0-OpenSSH_9.2\r\n']))).toBe('HPE_INVALID_CONSTANT');
    expect(errorCode(() => read(['HTTP/1.1 200 OK\nContent-Length: 0\n\n']))).toBe('HPE_CR_EXPECTED');
    expect(errorCode(() => read(['HTTP/1.1 200 OK\r\nA: 1\n']))).toBe('HPE_CR_EXPECTED');
    // Empty lines before the status line are skipped (llhttp does too).
    expect(read(['\r\n', '\r\nHTTP/1.1 204 No Content\r\n\r\n']).heads[0]?.status).toBe(204);
    // A head that is merely incomplete waits for the rest.
    expect(read(['HTT', 'P/1.1 200 OK\r', '\nContent-Length: 0\r\n\r\n']).ended).toBe(true);
  });

  it('a head past 256 KiB is refused without waiting for its end', () => {
    const huge = 'HTTP/1.1 200 OK\r\nX-Big: ' + 'a'.repeat(300 * 1024);
    expect(errorCode(() => read([huge]))).toBe('HPE_HEADER_OVERFLOW');
    expect(errorCode(() => read([huge.slice(0, 200 * 1024), huge.slice(200 * 1024)]))).toBe('HPE_HEADER_OVERFLOW');
  });
});

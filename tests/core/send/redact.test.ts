import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Redactor } from '../../../src/core/send/redact.js';
import { MASK, redactText } from '../../../src/core/secrets.js';

/** Feeds bytes to a stream redactor in the given chunk sizes; what comes out, joined and piece by piece. */
function streamed(redactor: Redactor, bytes: Buffer, sizes: number[]): { out: string; pieces: string[] } {
  const stream = redactor.stream();
  const pieces: Buffer[] = [];
  let at = 0;
  for (const size of sizes) {
    if (at >= bytes.length) break;
    pieces.push(Buffer.from(stream.push(bytes.subarray(at, at + size))));
    at += size;
  }
  if (at < bytes.length) pieces.push(Buffer.from(stream.push(bytes.subarray(at))));
  pieces.push(Buffer.from(stream.end()));
  return { out: Buffer.concat(pieces).toString('utf8'), pieces: pieces.map((piece) => piece.toString('utf8')) };
}

describe('Redactor (what dial send prints)', () => {
  const redactor = new Redactor(['hunter2-secret', 'ab', 'tok-123']);

  it('masks text, header values and bytes as history does; values under 3 characters stay', () => {
    expect(redactor.text('pw=hunter2-secret&x=ab')).toBe(`pw=${MASK}&x=ab`);
    expect(
      redactor.headers([
        ['Authorization', 'Bearer tok-123'],
        ['X-Other', 'plain'],
      ]),
    ).toEqual([
      ['Authorization', `Bearer ${MASK}`],
      ['X-Other', 'plain'],
    ]);
    expect(Buffer.from(redactor.bytes(Buffer.from('{"t":"tok-123","u":"tok-123"}'))).toString()).toBe(
      `{"t":"${MASK}","u":"${MASK}"}`,
    );
    const none = new Redactor([]);
    const bytes = Buffer.from('tok-123');
    expect(none.active).toBe(false);
    expect(none.bytes(bytes)).toBe(bytes);
  });

  it('masks a secret in the body in its encoded forms too, as it does in text (a URL echoed back, JSON)', () => {
    const spaced = new Redactor(['p@ss w/rd+"q"']);
    const body = Buffer.from(
      `{"url": "http://h/get?k=${encodeURI('p@ss w/rd+"q"')}", "form": "k=${encodeURIComponent('p@ss w/rd+"q"').replaceAll('%20', '+')}", "json": ${JSON.stringify('p@ss w/rd+"q"')}}`,
    );
    expect(Buffer.from(spaced.bytes(body)).toString()).toBe(
      `{"url": "http://h/get?k=${MASK}", "form": "k=${MASK}", "json": "${MASK}"}`,
    );
    expect(streamed(spaced, body, [7, 13, 5]).out).toBe(
      `{"url": "http://h/get?k=${MASK}", "form": "k=${MASK}", "json": "${MASK}"}`,
    );
  });

  it('masks a value split across chunks, holding back only a tail that may start one', () => {
    const { out, pieces } = streamed(redactor, Buffer.from('data: hunter2-secret\n\nnext tok-1'), [9, 4, 100]);
    expect(out).toBe(`data: ${MASK}\n\nnext tok-1`);
    // "data: hun" is sent without "hun" (it may be the start of the secret)...
    expect(pieces[0]).toBe('data: ');
    // ...and an event that ends cleanly is not held back at all.
    expect(streamed(redactor, Buffer.from('event one\n\n'), [11]).pieces[0]).toBe('event one\n\n');
  });

  it('any chunking gives the same output as masking the whole body at once', () => {
    const secrets = ['hunter2-secret', 'tok-123', 'aaa-b'];
    const masker = new Redactor(secrets);
    const piece = fc.constantFrom(
      'hunter2-secret',
      'tok-123',
      'aaa-b',
      'aaa',
      'hunt',
      'tok-',
      'x',
      ' ',
      'é',
      '\n',
      'a',
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 30 }),
        fc.array(fc.integer({ min: 1, max: 7 }), { maxLength: 40 }),
        (parts, sizes) => {
          const text = parts.join('');
          expect(streamed(masker, Buffer.from(text, 'utf8'), sizes).out).toBe(redactText(text, secrets));
        },
      ),
    );
  });
});

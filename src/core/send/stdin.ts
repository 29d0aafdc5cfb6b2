/** Piped stdin as a request body: peeked so an empty pipe means "no body" (GET), streamed otherwise. */
import type { RequestBody } from '../http/types.js';

/**
 * Reads the first chunk of `source`: undefined when it ends at once (an empty pipe), else a
 * streaming body that replays that chunk and then the rest. `length` is passed through for
 * regular files (Content-Length instead of chunked).
 */
export async function peekStdinBody(
  source: AsyncIterable<Uint8Array>,
  length?: number,
): Promise<RequestBody | undefined> {
  const iterator = source[Symbol.asyncIterator]();
  let first = await iterator.next();
  while (!first.done && first.value.byteLength === 0) first = await iterator.next();
  if (first.done) return undefined;
  const head = first.value;
  async function* replay(): AsyncGenerator<Uint8Array> {
    yield head;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return length === undefined ? { kind: 'stream', stream: replay() } : { kind: 'stream', stream: replay(), length };
}

/** Reads a whole stream into memory (for --offline, --curl and digest auth, which need the bytes twice). */
export async function collectStream(source: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of source) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

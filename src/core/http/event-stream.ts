/**
 * A response whose Content-Type is text/event-stream (server-sent events) is read event by
 * event as it arrives, whatever request asked for it (`SSE url`, or a plain GET/POST): each
 * event goes to `SendOptions.onMessage` at once, and the stream ends when the server ends it,
 * after `sse.maxEvents` events, or `sse.durationMs` after the head (an end, not an error).
 * The body the assertions and scripts read is the events as a JSON array of {event, id, data};
 * a caller that streams the body (`dial send`) still gets the raw bytes in its Writable.
 * Parsing is eventsource-parser's (loaded on the first event stream).
 */
import { pipeline, type Readable, type Transform, type Writable } from 'node:stream';
import { nowMs } from '../clock.js';
import { DialError } from '../errors.js';
import { ForwardSink } from './body-sinks.js';
import type { Stopper } from './transport.js';
import type { ResponseBody, SendOptions, StreamMessage } from './types.js';

/** One event as the body holds it. */
export interface ServerSentEvent {
  event?: string;
  id?: string;
  data: string;
}

/**
 * Reads an event stream to its end (or its limits), reporting each event; writes the raw bytes
 * to `target` when there is one. `started` is when the exchange began (StreamMessage.atMs).
 */
export async function receiveEventStream(
  source: Readable,
  decoders: Transform[],
  target: Writable | null,
  options: SendOptions,
  stopper: Stopper,
  started: number,
): Promise<{ body: ResponseBody; size: number }> {
  const { createParser } = await import('eventsource-parser');
  const events: ServerSentEvent[] = [];
  // Events kept in memory (no stream target) count against the body cap (the maxBodySize setting).
  const cap = target === null && options.bodyTarget?.kind === 'buffer' ? options.bodyTarget.maxBodyBytes : undefined;
  let kept = 0;
  const maxEvents = options.sse?.maxEvents;
  const only = options.sse?.events;
  let done = maxEvents === 0;
  const parser = createParser({
    onEvent(message) {
      if (done || (only && !only.includes(message.event ?? 'message'))) return;
      const event: ServerSentEvent = { data: message.data };
      if (message.event !== undefined) event.event = message.event;
      if (message.id !== undefined) event.id = message.id;
      events.push(event);
      kept += message.data.length;
      if (cap !== undefined && kept > cap) throw eventsTooLarge(cap);
      const report: StreamMessage = { direction: 'received', data: message.data, atMs: round(nowMs() - started) };
      if (message.event !== undefined) report.event = message.event;
      if (message.id !== undefined) report.id = message.id;
      options.onMessage?.(report);
      if (maxEvents !== undefined && events.length >= maxEvents) done = true;
    },
  });
  const stream: Readable =
    decoders.length === 0
      ? source
      : ((pipeline as unknown as (...streams: unknown[]) => Readable)(source, ...decoders, ignoreError) as Readable);
  const abort = (): void => {
    stream.destroy(Object.assign(new Error('The operation was aborted'), { name: 'AbortError' }));
  };
  stopper.onStop(abort);
  // `@sse-timeout`: the stream is read for this long, then ends like a stream the server closed.
  const durationMs = options.sse?.durationMs;
  const timer =
    durationMs !== undefined && durationMs > 0
      ? setTimeout(() => {
          done = true;
          stream.destroy();
        }, durationMs)
      : undefined;
  const text = new TextDecoder();
  const sink = target ? new ForwardSink(target) : undefined;
  let size = 0;
  try {
    if (!done) {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (sink) await write(sink, chunk);
        parser.feed(text.decode(chunk, { stream: true }));
        if (done) break;
      }
    }
    if (!done) parser.feed(text.decode());
  } catch (error) {
    // A stream ended by its own time limit is complete; any other failure (timeout, cancel, reset) is not.
    if (!done || stopper.aborted) {
      sink?.destroy();
      throw error;
    }
  } finally {
    clearTimeout(timer);
    stopper.offStop(abort);
    if (!source.destroyed && !source.readableEnded) source.destroy();
  }
  if (sink) {
    // Ends the caller's Writable (not stdout/stderr) once flushed.
    await new Promise<void>((resolve, reject) => {
      sink.once('error', reject);
      sink.end(resolve);
    });
    return { body: { kind: 'streamed', size }, size };
  }
  const bytes = Buffer.from(JSON.stringify(events));
  return { body: { kind: 'memory', bytes }, size: bytes.length };
}

function eventsTooLarge(cap: number): DialError {
  return new DialError(
    'E_BODY_TOO_LARGE',
    `the events of this stream hold more than ${cap} bytes (the maxBodySize setting)`,
    {
      hint: 'end the stream sooner with `# @sse-count N` or `# @sse-timeout 5s`, or raise maxBodySize',
    },
  );
}

function write(target: Writable, chunk: Buffer): Promise<void> | void {
  if (target.write(chunk)) return;
  return new Promise((resolve, reject) => {
    const onDrain = (): void => {
      target.off('error', onError);
      resolve();
    };
    const onError = (error: Error): void => {
      target.off('drain', onDrain);
      reject(error);
    };
    target.once('drain', onDrain);
    target.once('error', onError);
  });
}

function ignoreError(): void {}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

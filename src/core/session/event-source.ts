/**
 * Server-sent events as .http files write them: httpyac's `SSE url` (also `EVENTSOURCE url`) is
 * a GET that asks for `text/event-stream` (a POST when it has a body); the engine reads any
 * event-stream answer event by event (core/http/event-stream.ts). `# @sse-count 3` and
 * `# @sse-timeout 5s` end the stream after that many events or that long (any request).
 * httpyac's `# @keepStreaming` (stream until cancelled) is what dial does anyway: the stream
 * is read until the server ends it, a limit is reached, or the request times out.
 */
import { parseDuration } from '../duration.js';
import type { HttpRequest, SendOptions } from '../http/types.js';
import type { RequestNode } from '../httpfile/types.js';

/** The HTTP request an `SSE url` request is sent as (see eventTypes for its `Event:` headers). */
export function eventSourceHttpRequest(request: HttpRequest): HttpRequest {
  const headers = request.headers.filter(([name]) => name.toLowerCase() !== 'event');
  if (!headers.some(([name]) => name.toLowerCase() === 'accept')) headers.push(['Accept', 'text/event-stream']);
  if (!headers.some(([name]) => name.toLowerCase() === 'cache-control')) headers.push(['Cache-Control', 'no-cache']);
  return { ...request, method: request.body.kind === 'none' ? 'GET' : 'POST', headers };
}

/** httpyac's `Event: update, done` headers of an `SSE` request: the event types to keep (never sent). */
export function eventTypes(request: HttpRequest): string[] | undefined {
  const types = request.headers
    .filter(([name]) => name.toLowerCase() === 'event')
    .flatMap(([, value]) => value.split(','))
    .map((type) => type.trim())
    .filter(Boolean);
  return types.length > 0 ? types : undefined;
}

/** The stream limits the request's metadata sets, if any (checked by the parser). */
export function streamLimits(node: RequestNode): SendOptions['sse'] {
  let limits: SendOptions['sse'];
  for (const meta of node.metadata) {
    if (meta.key === 'sse-count') limits = { ...limits, maxEvents: Number(meta.value) };
    else if (meta.key === 'sse-timeout') limits = { ...limits, durationMs: parseDuration(meta.value, '@sse-timeout') };
  }
  return limits;
}

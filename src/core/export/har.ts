/**
 * `dial export har`: history entries as a HAR 1.2 log, for browsers' and proxies' viewers.
 * History is masked before it reaches the disk (sensitive headers, `# @secret` values), and
 * the HAR is built from it as it is: nothing is unmasked.
 */
import type { HistoryEntry } from '../history/index.js';
import type { HeaderList } from '../http/types.js';
import { isWebSocketRequest } from '../http/protocols.js';

interface HarNameValue {
  name: string;
  value: string;
}

function harHeaders(headers: HeaderList): HarNameValue[] {
  return headers.map(([name, value]) => ({ name, value }));
}

function queryString(url: string): HarNameValue[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

function headerValue(headers: HeaderList, wanted: string): string | undefined {
  return headers.find(([name]) => name.toLowerCase() === wanted)?.[1];
}

/** HAR's http version labels: `HTTP/1.1`, `HTTP/2`. */
function versionLabel(version: string): string {
  return /^HTTP\//i.test(version) ? version : `HTTP/${version}`;
}

/**
 * What HAR shows for the protocol methods, which are not HTTP methods: a WebSocket is the GET
 * that upgraded (Chrome marks such entries `_resourceType: websocket`), a gRPC call the POST it
 * is on the wire; a comment says how dial's history holds their messages.
 */
function onTheWire(
  method: string,
  url: string,
): { method: string; url: string; resourceType?: string; comment?: string } {
  if (isWebSocketRequest({ method, url }))
    return {
      method: 'GET',
      url,
      resourceType: 'websocket',
      comment:
        'WebSocket: postData holds the messages sent as written, the response content those received (a JSON array)',
    };
  // Kept as grpc://: an importer then skips the entry rather than make an HTTP POST of JSON.
  if (method === 'GRPC')
    return { method: 'POST', url, comment: 'gRPC call: messages are shown as JSON (on the wire they are protobuf)' };
  return { method, url };
}

/** One history entry as a HAR entry (times in ms; unknown phases are -1). */
function harEntry(entry: HistoryEntry): Record<string, unknown> {
  const { request: recorded, response, timings } = entry.exchange;
  const wire = onTheWire(recorded.method, recorded.url);
  const request = { ...recorded, method: wire.method, url: wire.url };
  const started = new Date(Date.parse(entry.time) - Math.round(timings.total));
  const setup = timings.dns + timings.connect + timings.tls;
  const receive = Math.max(0, timings.total - setup - timings.firstByte);
  const requestType = headerValue(request.headers, 'content-type') ?? 'application/octet-stream';
  return {
    startedDateTime: Number.isNaN(started.getTime()) ? entry.time : started.toISOString(),
    time: timings.total,
    request: {
      method: request.method,
      url: request.url,
      httpVersion: versionLabel(response.httpVersion),
      cookies: [],
      headers: harHeaders(request.headers),
      queryString: queryString(request.url),
      ...(request.body !== undefined
        ? {
            postData: {
              mimeType: requestType,
              text: request.body,
              ...(request.bodyTruncated ? { comment: 'cut at 64 KiB by dial history' } : {}),
            },
          }
        : {}),
      headersSize: -1,
      bodySize: request.bodySize ?? (request.body !== undefined ? Buffer.byteLength(request.body) : 0),
    },
    response: {
      status: response.status,
      statusText: response.statusText,
      httpVersion: versionLabel(response.httpVersion),
      cookies: [],
      headers: harHeaders(response.headers),
      content: {
        size: response.size,
        mimeType: headerValue(response.headers, 'content-type') ?? 'application/octet-stream',
        ...(response.body !== undefined ? { text: response.body } : {}),
        ...(response.bodyEncoding ? { encoding: response.bodyEncoding } : {}),
        ...(response.bodyTruncated ? { comment: 'cut at 64 KiB by dial history' } : {}),
      },
      redirectURL: headerValue(response.headers, 'location') ?? '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: {
      blocked: -1,
      dns: timings.dns,
      connect: setup > 0 ? timings.connect + timings.tls : -1,
      ssl: timings.tls > 0 ? timings.tls : -1,
      send: 0,
      wait: timings.firstByte,
      receive,
    },
    ...(response.remoteAddress ? { serverIPAddress: response.remoteAddress } : {}),
    ...(wire.resourceType && { _resourceType: wire.resourceType }),
    ...((entry.requestId || wire.comment) && {
      comment: [entry.requestId, wire.comment].filter(Boolean).join(' - '),
    }),
  };
}

/** A HAR 1.2 document of the entries, oldest first. */
export function historyToHar(entries: HistoryEntry[], version: string): string {
  const sorted = [...entries].sort((a, b) => Date.parse(a.time) - Date.parse(b.time));
  const har = { log: { version: '1.2', creator: { name: 'dial', version }, entries: sorted.map(harEntry) } };
  return `${JSON.stringify(har, null, 2)}\n`;
}

/** The Raw tab's text. */
import type { ResponseResult } from './services.js';

/** The whole exchange as text: the request as sent (line, headers, body preview), then the response (status line, headers, blank line, body). */
export function rawText(result: ResponseResult): string {
  const q = result.exchange.request;
  const r = result.exchange.response;
  const sent = `${q.method} ${q.url}\n${q.headers.map(([n, v]) => `${n}: ${v}`).join('\n')}${q.headers.length ? '\n' : ''}${q.bodyPreview ? `\n${q.bodyPreview}\n` : ''}`;
  return `${sent}\nHTTP/${r.httpVersion} ${r.status} ${r.statusText}\n${r.headers.map(([n, v]) => `${n}: ${v}`).join('\n')}\n\n${result.bodyText}`;
}

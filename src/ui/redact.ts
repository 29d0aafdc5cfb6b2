/**
 * What the TUI shows of an exchange, with secrets masked: the session's secret
 * values anywhere in the body, headers, URL, request as sent and test messages, plus the
 * Authorization / Cookie / Set-Cookie / Proxy-Authorization header values. The App computes
 * this once per response (and reveal toggle), BEFORE the text is split into viewer lines.
 *
 * Only the display is masked. Copy body and save body write the real bytes, and copy as curl
 * gives a runnable command with the real values: the user asked for that content, and a copy
 * with •••• in it would be a broken artefact. The pager is a display, so it gets the masked text.
 */
import { maskHeaders, redactText } from '../core/secrets.js';
import type { StreamMessage } from '../core/http/types.js';
import type { HistoryItem, ResponseResult } from './services.js';

/** The result as displayed: masked unless `reveal`. Returns the same object when there is nothing to change. */
export function maskResult(result: ResponseResult, reveal: boolean): ResponseResult {
  if (reveal) return result;
  const secrets = usable(result.secrets);
  const text = (value: string): string => (secrets.length ? redactText(value, secrets) : value);
  const { exchange } = result;
  const request = exchange.request;
  const response = exchange.response;
  return {
    ...result,
    // One linear pass per secret, even over a body of hundreds of MiB; none at all without secrets.
    bodyText: text(result.bodyText),
    exchange: {
      ...exchange,
      request: {
        ...request,
        url: text(request.url),
        headers: maskHeaders(request.headers, secrets),
        ...(request.bodyPreview !== undefined ? { bodyPreview: text(request.bodyPreview) } : {}),
      },
      response: { ...response, url: text(response.url), headers: maskHeaders(response.headers, secrets) },
      redirects: secrets.length
        ? exchange.redirects.map((hop) => ({ ...hop, from: text(hop.from), to: text(hop.to) }))
        : exchange.redirects,
    },
    ...(result.tests
      ? {
          tests: result.tests.map((t) => ({
            ...t,
            source: text(t.source),
            ...(t.message !== undefined ? { message: text(t.message) } : {}),
          })),
        }
      : {}),
    ...(result.error ? { error: { ...result.error, message: text(result.error.message) } } : {}),
  };
}

/** A WebSocket message log as displayed: secret values masked in each message unless `reveal`. */
export function maskMessages(messages: StreamMessage[], secrets: Iterable<string>, reveal: boolean): StreamMessage[] {
  const values = usable([...secrets]);
  if (reveal || values.length === 0) return messages;
  return messages.map((message) => ({ ...message, data: redactText(message.data, values) }));
}

/** History entries as displayed: secret values masked in labels and bodies unless `reveal`. */
export function maskHistory(items: HistoryItem[], secrets: Iterable<string>, reveal: boolean): HistoryItem[] {
  const values = usable([...secrets]);
  if (reveal || values.length === 0) return items;
  return items.map((item) => ({ ...item, label: redactText(item.label, values), body: redactText(item.body, values) }));
}

// redactText leaves values under 3 characters alone; filtering here lets an empty list skip every pass.
function usable(secrets: string[] | undefined): string[] {
  return (secrets ?? []).filter((value) => value.length >= 3);
}

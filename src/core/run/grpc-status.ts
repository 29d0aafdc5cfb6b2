/**
 * A gRPC call that ends with a status other than OK failed, even though an Exchange came back
 * (its status shows as the mapped HTTP status, ../http/grpc/status.ts). `dial run` counts it
 * as a failed check unless the request expects it: a `?? status …` or `?? header grpc-status …`
 * assertion, or a `> {% %}` handler that reads the status.
 */
import type { AssertionResult } from '../assert/evaluate.js';
import type { Exchange } from '../http/types.js';
import type { RequestNode } from '../httpfile/types.js';

function headerOf(exchange: Exchange, name: string): string | undefined {
  return exchange.response.headers.find(([key]) => key.toLowerCase() === name)?.[1];
}

/** The failed implicit check of a non-OK gRPC status nobody asserted on, or undefined. */
export function unassertedGrpcFailure(node: RequestNode, exchange: Exchange): AssertionResult | undefined {
  if (exchange.request.method !== 'GRPC') return undefined;
  const code = headerOf(exchange, 'grpc-status');
  if (code === undefined || code === '0') return undefined;
  const asserted =
    node.assertions.some(
      (assertion) =>
        assertion.query === 'status' ||
        (assertion.query === 'header' && assertion.argument?.toLowerCase() === 'grpc-status'),
    ) || node.handlers.some((handler) => handler.kind === 'inline' && /\bstatus\b/.test(handler.code));
  if (asserted) return undefined;
  const message = headerOf(exchange, 'grpc-message');
  const status = exchange.response.statusText;
  return {
    kind: 'assertion',
    source: 'gRPC status is OK',
    line: node.requestLineSpan.line,
    passed: false,
    expected: '0 (OK)',
    actual: `${code} (${status}${message ? `: ${message}` : ''})`,
    message: `gRPC status ${status} (${code})${message ? `: ${message}` : ''}; assert on it (\`?? header grpc-status == ${code}\`) if it is expected`,
  };
}

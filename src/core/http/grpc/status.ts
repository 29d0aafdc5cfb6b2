/**
 * gRPC status codes, their names, and the HTTP status a gRPC exchange is shown with: the
 * mapping google.rpc.Code documents (OK 200, INVALID_ARGUMENT 400, NOT_FOUND 404,
 * UNAVAILABLE 503…), so `?? status`, `--check-status` and every HTTP view read a gRPC outcome
 * the way they read an HTTP one. The gRPC code itself stays in the `grpc-status` header.
 */

const CODES: ReadonlyArray<readonly [name: string, httpStatus: number]> = [
  ['OK', 200],
  ['CANCELLED', 499],
  ['UNKNOWN', 500],
  ['INVALID_ARGUMENT', 400],
  ['DEADLINE_EXCEEDED', 504],
  ['NOT_FOUND', 404],
  ['ALREADY_EXISTS', 409],
  ['PERMISSION_DENIED', 403],
  ['RESOURCE_EXHAUSTED', 429],
  ['FAILED_PRECONDITION', 400],
  ['ABORTED', 409],
  ['OUT_OF_RANGE', 400],
  ['UNIMPLEMENTED', 501],
  ['INTERNAL', 500],
  ['UNAVAILABLE', 503],
  ['DATA_LOSS', 500],
  ['UNAUTHENTICATED', 401],
];

/** `NOT_FOUND` for 5; `CODE_42` for a code outside the table. */
export function grpcStatusName(code: number): string {
  return CODES[code]?.[0] ?? `CODE_${code}`;
}

/** The HTTP status a gRPC status is shown as (500 for a code outside the table). */
export function httpStatusOfGrpc(code: number): number {
  return CODES[code]?.[1] ?? 500;
}

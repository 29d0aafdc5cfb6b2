/** What the parser checks on a `GRPC` request line: its target, read the way the session will read it. */
import { GrpcTargetError, parseGrpcTarget } from '../http/grpc/target.js';
import type { MetadataNode } from './types.js';

/** Why a GRPC target cannot be sent, or undefined when it can (or holds variables, checked once resolved). */
export function grpcTargetProblem(
  target: string,
  metadata: ReadonlyArray<Pick<MetadataNode, 'key' | 'value'>>,
): { message: string; hint: string } | undefined {
  if (target.includes('{{')) return undefined;
  try {
    parseGrpcTarget(target, metadata);
    return undefined;
  } catch (error) {
    if (error instanceof GrpcTargetError) return { message: error.message, hint: error.hint };
    throw error;
  }
}

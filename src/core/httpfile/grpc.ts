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

/** A `.proto` file httpyac's `proto < ./file.proto` line names, with the import folders of its option lines. */
export interface ProtoImport {
  /** As written, relative to the .http file. */
  path: string;
  importPaths: string[];
}

/** httpyac's `proto < ./file.proto` line. */
export const PROTO_IMPORT_RE = /^proto[ \t]+<[ \t]*(\S.*?)\s*$/;

/** A proto-loader option line after it: `keepCase: true`, `includeDirs: ["./protos"]`. */
export const PROTO_OPTION_RE = /^([A-Za-z]\w*)[ \t]*:[ \t]*(.*?)\s*$/;

/** proto-loader options that change nothing in what dial sends (it reads both field spellings and shows JSON names). */
const NEUTRAL_OPTIONS = new Set([
  'keepCase',
  'longs',
  'enums',
  'bytes',
  'defaults',
  'arrays',
  'objects',
  'oneofs',
  'json',
]);

/** Applies one option line to the import; answers why it cannot be read, or undefined. */
export function protoOptionProblem(proto: ProtoImport, key: string, value: string): string | undefined {
  if (NEUTRAL_OPTIONS.has(key)) return undefined;
  if (key !== 'includeDirs') return `the proto-loader option '${key}' is not supported`;
  let dirs: unknown;
  try {
    // httpyac evaluates the value as JavaScript; dial reads a list of string literals.
    dirs = JSON.parse(value.replace(/'([^'"\\]*)'/g, '"$1"'));
  } catch {
    dirs = undefined;
  }
  if (!Array.isArray(dirs) || !dirs.every((dir) => typeof dir === 'string'))
    return `includeDirs must be a list of folders, like ["./protos"]`;
  proto.importPaths.push(...dirs);
  return undefined;
}

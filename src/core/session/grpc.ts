/**
 * A `GRPC` request's target once its variables are resolved: the URL dial sends it to
 * (`grpc://host:port/package.Service/Method`, grpcs:// for TLS) and its schema source, with
 * the `.proto` files and import paths made absolute from the .http file's folder.
 */
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { DialError } from '../errors.js';
import { GrpcTargetError, grpcTargetUrl, parseGrpcTarget } from '../http/grpc/target.js';
import type { HttpRequest } from '../http/types.js';
import type { HttpFile, RequestNode } from '../httpfile/types.js';

export function grpcRequestParts(
  url: string,
  node: RequestNode,
  httpFile: HttpFile,
  workspaceRoot: string,
  headers: Array<[string, string]>,
): Pick<HttpRequest, 'url' | 'grpc'> {
  const dir = httpFile.path ? dirname(httpFile.path) : workspaceRoot;
  try {
    const target = parseGrpcTarget(url, node.metadata);
    // httpyac's `channelCredentials: ssl | insecure` header chooses TLS; it is not metadata.
    const credentials = headers.findIndex(([name]) => name.toLowerCase() === 'channelcredentials');
    if (credentials >= 0) {
      const value = headers[credentials][1].trim().toLowerCase();
      if (value !== 'ssl' && value !== 'insecure')
        throw new GrpcTargetError(`channelCredentials '${value}'`, 'write channelCredentials: ssl or insecure');
      target.tls = value === 'ssl';
      headers.splice(credentials, 1);
    }
    const absolute = (path: string): string => (isAbsolute(path) ? path : resolve(dir, path));
    // httpyac's `proto <` lines add their files and includeDirs.
    for (const proto of node.grpcProtos ?? []) {
      target.protoFiles.push(proto.path);
      target.importPaths.push(...proto.importPaths);
    }
    const importPaths = target.importPaths.map(absolute);
    // As grpcurl: a proto file is found beside the .http file, else in the import paths.
    const protoFile = (path: string): string =>
      [absolute(path), ...importPaths.map((importPath) => resolve(importPath, path))].find((candidate) =>
        existsSync(candidate),
      ) ?? absolute(path);
    return {
      url: grpcTargetUrl(target),
      grpc: {
        protoFiles: target.protoFiles.map(protoFile),
        importPaths,
        ...(target.protosetFiles ? { protosetFiles: target.protosetFiles.map(absolute) } : {}),
        ...(target.insecure ? { insecure: true } : {}),
        ...(target.authority ? { authority: target.authority } : {}),
        ...(target.command ? { command: target.command } : {}),
      },
    };
  } catch (error) {
    if (!(error instanceof GrpcTargetError)) throw error;
    throw new DialError('E_INPUT', `gRPC target: ${error.message}`, {
      location: { file: httpFile.path || '<text>', line: node.requestLineSpan.line },
      hint: error.hint,
    });
  }
}

/**
 * The schema of a gRPC call: protobufjs types read from the request's `.proto` files or from
 * the FileDescriptorProtos the server's reflection sent. Field names are kept as written in
 * the .proto (`keepCase`), the same as descriptors carry them; ./json.ts maps them to and from
 * the JSON names.
 */
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type * as Protobuf from 'protobufjs';
import { DialError } from '../../errors.js';
import { encodeFields } from './wire.js';

type ProtobufModule = typeof Protobuf;
/** protobufjs/ext/descriptor adds this to Root. */
type RootWithDescriptors = typeof Protobuf.Root & { fromDescriptor(descriptor: Uint8Array): Protobuf.Root };

/** protobufjs with its descriptor extension loaded (Root.fromDescriptor). */
async function loadProtobuf(): Promise<{ protobuf: ProtobufModule; Root: RootWithDescriptors }> {
  const imported = (await import('protobufjs')) as ProtobufModule & { default?: ProtobufModule };
  const protobuf = imported.default ?? imported;
  if (typeof (protobuf.Root as Partial<RootWithDescriptors>).fromDescriptor !== 'function') {
    // Built, dist/lib/protobufjs.cjs loads the extension already (scripts/build.mjs); from the
    // sources (tests) it is its own module. A computed name keeps the bundler from inlining it.
    const extension = 'protobufjs/ext/descriptor';
    await import(extension);
  }
  return { protobuf, Root: protobuf.Root as RootWithDescriptors };
}

/** The method to call, with its request and response types. */
export interface GrpcMethodSchema {
  /** `/package.Service/Method`. */
  path: string;
  requestType: Protobuf.Type;
  responseType: Protobuf.Type;
  requestStream: boolean;
  responseStream: boolean;
}

/** Reads `.proto` files; imports are looked up beside the importing file, then in `importPaths`. */
export async function rootFromProtoFiles(files: string[], importPaths: string[]): Promise<Protobuf.Root> {
  const { protobuf } = await loadProtobuf();
  for (const file of files) {
    if (!existsSync(file)) {
      throw new DialError('E_NOT_FOUND', `proto file not found: ${file}`, {
        hint: 'paths in `# @grpc-proto` are relative to the .http file',
      });
    }
  }
  const root = new protobuf.Root();
  root.resolvePath = (origin: string, target: string): string => {
    if (isAbsolute(target)) return target;
    const candidates = [...(origin ? [dirname(origin)] : []), ...importPaths].map((dir) => join(dir, target));
    return candidates.find((candidate) => existsSync(candidate)) ?? resolve(target);
  };
  try {
    await root.load(files, { keepCase: true });
    root.resolveAll();
  } catch (error) {
    throw new DialError('E_INPUT', `cannot read the proto files: ${(error as Error).message}`, {
      hint: 'name the folders its imports live in with `# @grpc-import-path DIR`',
      cause: error,
    });
  }
  return root;
}

/** Builds the schema from serialized FileDescriptorProtos (what server reflection sends). */
export async function rootFromDescriptors(files: Buffer[]): Promise<Protobuf.Root> {
  const { Root } = await loadProtobuf();
  // A FileDescriptorSet is its files as repeated field 1.
  const set = encodeFields(files.map((file) => [1, file] as const));
  try {
    const root = Root.fromDescriptor(set);
    root.resolveAll();
    return root;
  } catch (error) {
    throw new DialError('E_INPUT', `cannot read the schema the server's reflection sent: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** The method `service/method` of the schema (the method's name also matched ignoring case, as httpyac does). */
export function findMethod(root: Protobuf.Root, service: string, method: string): GrpcMethodSchema {
  const found = root.lookup(service);
  if (!found || !('methods' in found)) {
    const services: string[] = [];
    const collect = (namespace: Protobuf.NamespaceBase): void => {
      for (const nested of namespace.nestedArray) {
        if ('methods' in nested) services.push(nested.fullName.replace(/^\./, ''));
        else if ('nestedArray' in nested) collect(nested as Protobuf.NamespaceBase);
      }
    };
    collect(root);
    throw new DialError('E_INPUT', `no service '${service}' in the schema`, {
      hint: services.length ? `services: ${services.sort().join(', ')}` : 'the schema defines no service',
    });
  }
  const serviceType = found as Protobuf.Service;
  const rpc =
    serviceType.methods[method] ??
    Object.values(serviceType.methods).find((candidate) => candidate.name.toLowerCase() === method.toLowerCase());
  if (!rpc) {
    throw new DialError('E_INPUT', `service '${service}' has no method '${method}'`, {
      hint: `methods: ${Object.keys(serviceType.methods).sort().join(', ')}`,
    });
  }
  rpc.resolve();
  return {
    path: `/${serviceType.fullName.replace(/^\./, '')}/${rpc.name}`,
    requestType: rpc.resolvedRequestType as Protobuf.Type,
    responseType: rpc.resolvedResponseType as Protobuf.Type,
    requestStream: Boolean(rpc.requestStream),
    responseStream: Boolean(rpc.responseStream),
  };
}

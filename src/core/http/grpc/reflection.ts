/**
 * A client of the gRPC server reflection service (grpc.reflection.v1, then v1alpha for older
 * servers): asks for the file that defines a service and every file it imports, and answers
 * them as serialized FileDescriptorProtos for protobufjs. The service's messages are written
 * and read with ./wire.ts, so no reflection .proto ships with dial.
 */
import type { Client, ClientDuplexStream, Metadata, ServiceError } from '@grpc/grpc-js';
import { DialError } from '../../errors.js';
import { decodeFields, encodeFields } from './wire.js';

/** What the reflection call shares with the call it prepares. */
export interface ReflectionCall {
  client: Client;
  metadata: Metadata;
  deadline?: Date;
  signal?: AbortSignal;
}

const VERSIONS = ['grpc.reflection.v1', 'grpc.reflection.v1alpha'];
const UNIMPLEMENTED = 12;
const NOT_FOUND = 5;

/** ServerReflectionRequest: file_by_filename = 3, file_containing_symbol = 4, list_services = 7. */
type Ask = { fileByName: string } | { symbol: string } | { listServices: true };

function encodeAsk(ask: Ask): Buffer {
  if ('fileByName' in ask) return encodeFields([[3, ask.fileByName]]);
  if ('symbol' in ask) return encodeFields([[4, ask.symbol]]);
  return encodeFields([[7, '*']]);
}

/** ServerReflectionResponse: file_descriptor_response = 4, list_services_response = 6, error_response = 7. */
type Answer =
  | { kind: 'files'; files: Buffer[] }
  | { kind: 'services'; names: string[] }
  | { kind: 'error'; code: number; message: string };

function decodeAnswer(bytes: Buffer): Answer {
  const fields = decodeFields(bytes);
  const files = fields.bytes.get(4)?.[0];
  if (files) return { kind: 'files', files: decodeFields(files).bytes.get(1) ?? [] };
  const services = fields.bytes.get(6)?.[0];
  if (services) {
    const names = (decodeFields(services).bytes.get(1) ?? []).map(
      (service) => decodeFields(service).bytes.get(1)?.[0]?.toString('utf8') ?? '',
    );
    return { kind: 'services', names };
  }
  const error = fields.bytes.get(7)?.[0];
  if (error) {
    const decoded = decodeFields(error);
    return {
      kind: 'error',
      code: decoded.varints.get(1) ?? 0,
      message: decoded.bytes.get(2)?.[0]?.toString('utf8') ?? '',
    };
  }
  return { kind: 'error', code: 0, message: 'the reflection service sent an empty answer' };
}

/** A FileDescriptorProto's name (field 1) and imports (field 3). */
function fileHeader(file: Buffer): { name: string; imports: string[] } {
  const fields = decodeFields(file).bytes;
  return {
    name: fields.get(1)?.[0]?.toString('utf8') ?? '',
    imports: (fields.get(3) ?? []).map((dependency) => dependency.toString('utf8')),
  };
}

/** An answer that says the server lacks this version of the service: try the older one. */
type Unimplemented = { unimplemented: true };

/**
 * Opens one reflection stream of `version` and hands it to `talk`, which asks its questions and
 * reads the answers. The first outcome settles it: what `talk` finishes with, a failed call, or
 * UNIMPLEMENTED (this version is not offered). Ctrl+C (the call's signal) cancels the stream.
 */
function reflectionStream<T>(
  call: ReflectionCall,
  version: string,
  talk: (stream: ClientDuplexStream<Ask, Answer>, finish: (outcome: T | Error) => void, settled: () => boolean) => void,
): Promise<T | Unimplemented> {
  return new Promise((resolve, reject) => {
    const stream: ClientDuplexStream<Ask, Answer> = call.client.makeBidiStreamRequest(
      `/${version}.ServerReflection/ServerReflectionInfo`,
      encodeAsk,
      decodeAnswer,
      call.metadata,
      call.deadline ? { deadline: call.deadline } : {},
    );
    const abort = (): void => stream.cancel();
    call.signal?.addEventListener('abort', abort, { once: true });
    let settled = false;
    const finish = (outcome: T | Unimplemented | Error): void => {
      if (settled) return;
      settled = true;
      call.signal?.removeEventListener('abort', abort);
      if (outcome instanceof Error) {
        stream.cancel();
        reject(outcome);
      } else {
        stream.end();
        resolve(outcome);
      }
    };
    stream.on('error', (error: ServiceError) => {
      if (error.code === UNIMPLEMENTED) finish({ unimplemented: true });
      else finish(error);
    });
    talk(stream, finish, () => settled);
  });
}

/** The files that define `service` and everything they import, asked for one by one. */
function reflectWith(
  call: ReflectionCall,
  version: string,
  service: string,
): Promise<{ files: Buffer[] } | Unimplemented> {
  return reflectionStream<{ files: Buffer[] }>(call, version, (stream, finish, settled) => {
    const files = new Map<string, Buffer>();
    const asked = new Set<string>();
    let pending = 0;
    const ask = (question: Ask): void => {
      pending++;
      stream.write(question);
    };
    stream.on('data', (answer: Answer) => {
      pending--;
      if (answer.kind === 'files') {
        for (const file of answer.files) {
          const header = fileHeader(file);
          files.set(header.name, file);
          asked.add(header.name);
          for (const name of header.imports) {
            if (asked.has(name)) continue;
            asked.add(name);
            ask({ fileByName: name });
          }
        }
      } else if (answer.kind === 'error' && answer.code === NOT_FOUND && files.size === 0) {
        ask({ listServices: true });
      } else if (answer.kind === 'services') {
        const offered = answer.names.filter((name) => !name.startsWith('grpc.reflection.')).sort();
        finish(
          new DialError('E_INPUT', `the server has no service '${service}'`, {
            hint: offered.length ? `it offers: ${offered.join(', ')}` : 'its reflection service lists no services',
          }),
        );
      } else if (answer.kind === 'error') {
        finish(new DialError('E_INPUT', `server reflection failed for '${service}': ${answer.message}`));
      }
      if (pending === 0 && !settled()) finish({ files: [...files.values()] });
    });
    ask({ symbol: service });
  });
}

/**
 * The serialized FileDescriptorProtos that define `service` and its imports, from the server's
 * reflection service. Throws E_INPUT when the server has no reflection or no such service; a
 * failed call rejects with grpc-js's ServiceError (the caller maps it).
 */
export async function reflectFiles(call: ReflectionCall, service: string): Promise<Buffer[]> {
  for (const version of VERSIONS) {
    const outcome = await reflectWith(call, version, service);
    if ('files' in outcome) return outcome.files;
  }
  throw new DialError('E_INPUT', `the server does not offer server reflection, so dial cannot learn '${service}'`, {
    hint: "name the service's .proto file in the request: `# @grpc-proto ./service.proto` (and `# @grpc-import-path DIR` for its imports)",
  });
}

/** One list_services question on a reflection stream. */
function listWith(call: ReflectionCall, version: string): Promise<{ names: string[] } | Unimplemented> {
  return reflectionStream<{ names: string[] }>(call, version, (stream, finish) => {
    stream.on('data', (answer: Answer) => {
      if (answer.kind === 'services') finish({ names: answer.names });
      else if (answer.kind === 'error') finish(new DialError('E_INPUT', `server reflection failed: ${answer.message}`));
      else finish(new DialError('E_INPUT', 'server reflection answered list_services with files'));
    });
    stream.write({ listServices: true });
  });
}

/** The services the server's reflection lists, in its order (kulala's `GRPC host:port list`). */
export async function reflectServiceNames(call: ReflectionCall): Promise<string[]> {
  for (const version of VERSIONS) {
    const outcome = await listWith(call, version);
    if ('names' in outcome) return outcome.names;
  }
  throw new DialError('E_INPUT', 'the server does not offer server reflection, so dial cannot list its services', {
    hint: "name the service's .proto file and use `describe`: `# @grpc-proto ./service.proto`",
  });
}

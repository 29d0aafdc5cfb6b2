/**
 * The sender of `GRPC` requests (../protocols.ts): unary and server-streaming calls with
 * @grpc/grpc-js, the schema from the request's .proto files or the server's reflection.
 *
 * The answer is an ordinary Exchange, so `send`, `run` and the workbench show and check it
 * like an HTTP one (docs/grpc.md):
 * - status: the HTTP status google.rpc.Code maps the gRPC status to (OK 200, NOT_FOUND 404,
 *   UNAVAILABLE 503…), status text the gRPC code's name;
 * - headers: `content-type: application/json` (the body dial holds), the server's response
 *   metadata, its trailers, then `grpc-status` and `grpc-message`;
 * - body: the response message as JSON (unary; empty on an error status), or the JSON array of
 *   the messages received (server streaming, also those before an error status).
 * Each message sent and received goes to `options.onMessage` as it happens. A call that never
 * reached the server (refused, DNS, TLS) or ran out of time throws the transport's DialError.
 */
import { readFileSync } from 'node:fs';
import type * as GrpcJs from '@grpc/grpc-js';
import type * as Protobuf from 'protobufjs';
import { nowMs } from '../../clock.js';
import { DialError, isDialError } from '../../errors.js';
import type { Exchange, HeaderList, HttpRequest, SendOptions, TlsOptions } from '../types.js';
import { decodeMessage, encodeMessage } from './json.js';
import { reflectFiles, reflectServiceNames } from './reflection.js';
import { findMethod, rootFromDescriptors, rootFromProtoFiles, type GrpcMethodSchema } from './schema.js';
import { grpcStatusName, httpStatusOfGrpc } from './status.js';
import { decodeFields } from './wire.js';
import { grpcTargetUrl, parseGrpcTarget, type GrpcCommand, type GrpcTarget } from './target.js';

type GrpcModule = typeof GrpcJs;

async function loadGrpc(): Promise<GrpcModule> {
  const imported = (await import('@grpc/grpc-js')) as GrpcModule & { default?: GrpcModule };
  return imported.default ?? imported;
}

/** Headers that describe the HTTP/2 request itself, not gRPC metadata (grpc-js writes its own). */
const NOT_METADATA = new Set([
  'content-type',
  'content-length',
  'te',
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'accept-encoding',
  'user-agent',
]);

function metadataOf(grpc: GrpcModule, headers: HeaderList): GrpcJs.Metadata {
  const metadata = new grpc.Metadata();
  for (const [rawName, value] of headers) {
    const name = rawName.toLowerCase();
    if (NOT_METADATA.has(name) || name.startsWith(':')) continue;
    if (name.startsWith('grpc-')) {
      throw new DialError('E_INPUT', `the header ${rawName} is reserved by gRPC`, {
        hint: 'the deadline comes from --timeout or `# @timeout`; drop the header',
      });
    }
    metadata.add(name, name.endsWith('-bin') ? Buffer.from(value, 'base64') : value);
  }
  return metadata;
}

/** Metadata as header pairs, in order; binary values as base64. */
function pairsOf(metadata: GrpcJs.Metadata | undefined): HeaderList {
  const pairs: HeaderList = [];
  if (!metadata) return pairs;
  for (const [name, values] of Object.entries(metadata.toJSON())) {
    for (const value of values) pairs.push([name, typeof value === 'string' ? value : value.toString('base64')]);
  }
  return pairs;
}

function credentialsFor(grpc: GrpcModule, target: GrpcTarget, tls: TlsOptions | undefined): GrpcJs.ChannelCredentials {
  if (!target.tls) return grpc.credentials.createInsecure();
  const read = (path: string | undefined): Buffer | null => {
    if (!path) return null;
    try {
      return readFileSync(path);
    } catch (error) {
      throw new DialError('E_IO', `cannot read ${path}: ${(error as Error).message}`, { cause: error });
    }
  };
  const verify = (tls?.verify ?? true) && !target.insecure;
  return grpc.credentials.createSsl(
    read(tls?.caFile),
    read(tls?.keyFile),
    read(tls?.certFile),
    verify ? {} : { rejectUnauthorized: false, checkServerIdentity: () => undefined },
  );
}

function requestText(request: HttpRequest): string {
  const body = request.body;
  switch (body.kind) {
    case 'none':
      return '';
    case 'text':
      return body.text;
    case 'bytes':
      return Buffer.from(body.bytes).toString('utf8');
    case 'file':
      try {
        return readFileSync(body.path, 'utf8');
      } catch (error) {
        throw new DialError('E_IO', `cannot read ${body.path}: ${(error as Error).message}`, { cause: error });
      }
    case 'stream':
    case 'multipart':
      throw new DialError('E_INPUT', `a gRPC request's body is one JSON message, not ${body.kind} data`);
  }
}

/** A failed call that never got an answer from the server: the transport error dial reports for HTTP too. */
function transportFailure(status: GrpcJs.StatusObject, target: GrpcTarget, url: string): DialError | undefined {
  if (status.code !== 14) return undefined;
  const details = status.details;
  if (/ECONNREFUSED/.test(details)) {
    return new DialError('E_CONNREFUSED', `connection refused by ${target.address} (${url})`, {
      hint: 'is the gRPC server running and listening on that port?',
    });
  }
  if (/ENOTFOUND|EAI_AGAIN|getaddrinfo|Name resolution failed/i.test(details)) {
    return new DialError('E_DNS', `cannot resolve ${target.address} (${url}): ${details}`);
  }
  if (/certificate|ssl|tls|handshake|self[- ]signed|wrong version/i.test(details)) {
    return new DialError('E_TLS', `TLS failed with ${target.address} (${url}): ${details}`, {
      hint: target.tls
        ? 'trust the server certificate with --cacert FILE, skip verification with --insecure, or use grpc:// for a plaintext server'
        : undefined,
    });
  }
  if (
    /No connection established|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|Connection dropped/i.test(details)
  ) {
    return new DialError('E_NETWORK', `no connection to ${target.address} (${url}): ${details}`);
  }
  return undefined;
}

/** Where the call's state gathers while it runs. */
interface CallRecord {
  started: number;
  firstByteAt?: number;
  initialMetadata?: GrpcJs.Metadata;
  messages: unknown[];
  status?: GrpcJs.StatusObject;
  peer?: string;
}

/** Runs the call until its status arrives; each decoded message is reported as it comes. */
function runCall(
  client: GrpcJs.Client,
  schema: GrpcMethodSchema,
  argument: Buffer,
  metadata: GrpcJs.Metadata,
  callOptions: GrpcJs.CallOptions,
  record: CallRecord,
  options: SendOptions,
): Promise<void> {
  const identity = (bytes: Buffer): Buffer => bytes;
  const event = schema.responseType.fullName.replace(/^\./, '');
  let decodeError: unknown;
  const onMessage = (bytes: Buffer): void => {
    record.firstByteAt ??= nowMs();
    try {
      const json = decodeMessage(schema.responseType, bytes);
      record.messages.push(json);
      options.onMessage?.({ direction: 'received', data: JSON.stringify(json), event, atMs: nowMs() - record.started });
    } catch (error) {
      decodeError = error;
    }
  };
  return new Promise((resolve, reject) => {
    const call = schema.responseStream
      ? client.makeServerStreamRequest(schema.path, identity, identity, argument, metadata, callOptions)
      : client.makeUnaryRequest(schema.path, identity, identity, argument, metadata, callOptions, (error, value) => {
          if (!error && value) onMessage(value);
        });
    const abort = (): void => call.cancel();
    options.signal?.addEventListener('abort', abort, { once: true });
    call.on('metadata', (received: GrpcJs.Metadata) => {
      record.firstByteAt ??= nowMs();
      record.initialMetadata = received;
    });
    if (schema.responseStream) call.on('data', onMessage);
    call.on('error', () => {
      // The status event that follows carries the same outcome.
    });
    call.on('status', (status: GrpcJs.StatusObject) => {
      options.signal?.removeEventListener('abort', abort);
      record.status = status;
      try {
        record.peer = call.getPeer();
      } catch {
        // no peer once the call failed to connect
      }
      if (decodeError) reject(decodeError);
      else resolve();
    });
  });
}

function remoteOf(peer: string | undefined): { remoteAddress?: string; remotePort?: number } {
  const match = peer ? /^(?:ipv[46]:)?\[?([^\]]+?)\]?:(\d+)$/.exec(peer) : null;
  return match ? { remoteAddress: match[1], remotePort: Number(match[2]) } : {};
}

/** The Exchange of a finished call (see the top of this file). */
function exchangeOf(
  request: HttpRequest,
  url: string,
  bodyText: string,
  schema: GrpcMethodSchema,
  record: CallRecord,
): Exchange {
  const status = record.status as GrpcJs.StatusObject;
  // The server's content-type (application/grpc) describes the wire, not the JSON body dial holds.
  const initial = pairsOf(record.initialMetadata).filter(([name]) => name !== 'content-type');
  const headers: HeaderList = [['content-type', 'application/json'], ...initial];
  const trailers = pairsOf(status.metadata).filter(([name]) => name !== 'content-type');
  headers.push(...trailers, ['grpc-status', String(status.code)]);
  if (status.details) headers.push(['grpc-message', status.details]);
  const body = schema.responseStream
    ? JSON.stringify(record.messages)
    : record.messages.length > 0
      ? JSON.stringify(record.messages[0])
      : '';
  const bytes = Buffer.from(body, 'utf8');
  const total = nowMs() - record.started;
  return {
    request: {
      method: request.method,
      url,
      headers: request.headers,
      ...(bodyText ? { bodyPreview: bodyText, bodySize: Buffer.byteLength(bodyText) } : {}),
    },
    response: {
      status: httpStatusOfGrpc(status.code),
      statusText: grpcStatusName(status.code),
      httpVersion: '2',
      headers,
      url,
      body: { kind: 'memory', bytes },
      size: bytes.length,
      ...remoteOf(record.peer),
    },
    timings: {
      dns: 0,
      connect: 0,
      tls: 0,
      firstByte: record.firstByteAt === undefined ? total : record.firstByteAt - record.started,
      total,
    },
    redirects: [],
  };
}

async function schemaFor(
  target: GrpcTarget,
  client: GrpcJs.Client,
  metadata: GrpcJs.Metadata,
  deadline: Date | undefined,
  options: SendOptions,
): Promise<GrpcMethodSchema> {
  let root: Protobuf.Root;
  if (target.protosetFiles?.length) {
    root = await rootFromProtosets(target.protosetFiles);
  } else if (target.protoFiles.length > 0) {
    root = await rootFromProtoFiles(target.protoFiles, target.importPaths);
  } else {
    const files = await reflectFiles({ client, metadata, deadline, signal: options.signal }, target.service);
    root = await rootFromDescriptors(files);
  }
  const schema = findMethod(root, target.service, target.method);
  if (schema.requestStream) {
    throw new DialError(
      'E_INPUT',
      `${target.service}/${target.method} is a ${schema.responseStream ? 'bidirectional' : 'client'}-streaming method, which dial does not call yet`,
      { hint: 'dial calls unary and server-streaming gRPC methods' },
    );
  }
  return schema;
}

/** The schema in compiled descriptor sets (FileDescriptorSet files, `protoc --descriptor_set_out`). */
async function rootFromProtosets(paths: string[]): Promise<Protobuf.Root> {
  const files: Buffer[] = [];
  for (const path of paths) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch (error) {
      throw new DialError('E_NOT_FOUND', `protoset file not found: ${path}`, {
        hint: 'paths in `# @grpc-protoset` and -protoset are relative to the .http file',
        cause: error,
      });
    }
    files.push(...(decodeFields(bytes).bytes.get(1) ?? []));
  }
  return rootFromDescriptors(files);
}

/** grpc-js channel options: no proxy from the environment; kulala's `-authority` as grpcurl's. */
function channelOptions(target: Pick<GrpcTarget, 'authority'>): GrpcJs.ChannelOptions {
  return {
    'grpc.enable_http_proxy': 0,
    ...(target.authority
      ? { 'grpc.ssl_target_name_override': target.authority, 'grpc.default_authority': target.authority }
      : {}),
  };
}

/**
 * kulala-core's `describe` answer: each service (fully qualified) with its method names, those
 * whose name contains the symbol when it names any, else all.
 */
function describeRoot(root: Protobuf.Root, symbol: string | undefined): Record<string, string[]> {
  const all: Record<string, string[]> = {};
  const walk = (namespace: Protobuf.NamespaceBase): void => {
    for (const nested of namespace.nestedArray) {
      const asService = nested as Protobuf.Service;
      if (asService.methods !== undefined && typeof asService.methods === 'object' && 'methodsArray' in asService)
        all[nested.fullName.replace(/^\./, '')] = asService.methodsArray.map((method) => method.name);
      if ((nested as Protobuf.NamespaceBase).nestedArray) walk(nested as Protobuf.NamespaceBase);
    }
  };
  walk(root);
  if (!symbol) return all;
  const matching = Object.entries(all).filter(([name]) => name.includes(symbol) || name.endsWith(`.${symbol}`));
  return matching.length > 0 ? Object.fromEntries(matching) : all;
}

/** kulala's `list` (the services reflection names) and `describe` (services and their methods), as a JSON answer. */
async function sendGrpcCommand(request: HttpRequest, command: GrpcCommand, options: SendOptions): Promise<Exchange> {
  const target: GrpcTarget = {
    address: command.address,
    service: '',
    method: '',
    tls: command.tls,
    protoFiles: request.grpc?.protoFiles ?? [],
    importPaths: request.grpc?.importPaths ?? [],
    ...(request.grpc?.insecure ? { insecure: true } : {}),
    ...(request.grpc?.authority ? { authority: request.grpc.authority } : {}),
    command,
  };
  const url = grpcTargetUrl(target);
  const started = nowMs();
  const grpc = await loadGrpc();
  const timeoutMs = options.timeoutMs ?? 30_000;
  const deadline = timeoutMs > 0 ? new Date(Date.now() + timeoutMs) : undefined;
  const metadata = metadataOf(grpc, request.headers);
  const client = new grpc.Client(target.address, credentialsFor(grpc, target, options.tls), channelOptions(target));
  const call = { client, metadata, deadline, signal: options.signal };
  try {
    let answer: unknown;
    if (command.kind === 'list') answer = await reflectServiceNames(call);
    else if (request.grpc?.protosetFiles?.length)
      answer = describeRoot(await rootFromProtosets(request.grpc.protosetFiles), command.symbol);
    else if (target.protoFiles.length > 0)
      answer = describeRoot(await rootFromProtoFiles(target.protoFiles, target.importPaths), command.symbol);
    else {
      const services = command.symbol ? [command.symbol.replace(/\/.*$/, '')] : await reflectServiceNames(call);
      const files = new Map<string, Buffer>();
      for (const service of services.filter((name) => !name.startsWith('grpc.reflection.')))
        for (const file of await reflectFiles(call, service)) files.set(file.toString('base64'), file);
      answer = describeRoot(await rootFromDescriptors([...files.values()]), command.symbol);
    }
    const bytes = Buffer.from(JSON.stringify(answer, null, 2), 'utf8');
    const total = nowMs() - started;
    return {
      request: { method: request.method, url, headers: request.headers },
      response: {
        status: 200,
        statusText: 'OK',
        httpVersion: '2',
        headers: [['content-type', 'application/json']],
        url,
        body: { kind: 'memory', bytes },
        size: bytes.length,
      },
      timings: { dns: 0, connect: 0, tls: 0, firstByte: total, total },
      redirects: [],
    };
  } catch (error) {
    if (isDialError(error)) throw error;
    const status = error as GrpcJs.StatusObject;
    throw (
      transportFailure({ ...status, code: status.code ?? 2, details: status.details ?? String(error) }, target, url) ??
      new DialError('E_NETWORK', `gRPC ${command.kind} on ${target.address} failed: ${(error as Error).message}`, {
        cause: error,
      })
    );
  } finally {
    client.close();
  }
}

/** Sends a `GRPC` request (see the top of this file). */
export async function sendGrpc(request: HttpRequest, options: SendOptions): Promise<Exchange> {
  if (request.grpc?.command) return sendGrpcCommand(request, request.grpc.command, options);
  let target: GrpcTarget;
  try {
    target = { ...parseGrpcTarget(request.url, []), ...request.grpc };
  } catch (error) {
    throw new DialError('E_INPUT', (error as Error).message, { hint: (error as { hint?: string }).hint });
  }
  const url = grpcTargetUrl(target);
  if (options.signal?.aborted) throw new DialError('E_CANCELLED', `cancelled: ${url}`);
  const started = nowMs();
  const grpc = await loadGrpc();
  const timeoutMs = options.timeoutMs ?? 30_000;
  const deadline = timeoutMs > 0 ? new Date(Date.now() + timeoutMs) : undefined;
  const metadata = metadataOf(grpc, request.headers);
  // grpc-js would pick a proxy from the environment on its own; dial's proxy settings are for HTTP.
  if (options.proxy)
    options.onWarning?.('gRPC requests do not go through a proxy (--proxy, the proxy setting): connecting directly');
  const client = new grpc.Client(target.address, credentialsFor(grpc, target, options.tls), channelOptions(target));
  const fail = (status: GrpcJs.StatusObject | undefined, error: unknown): DialError => {
    if (isDialError(error)) return error;
    const code = status?.code ?? (error as { code?: number }).code;
    const details = status?.details ?? (error as Error).message;
    if (options.signal?.aborted) return new DialError('E_CANCELLED', `cancelled: ${url}`);
    if (code === 4 && deadline && Date.now() >= deadline.getTime() - 50)
      return new DialError('E_TIMEOUT', `the gRPC call to ${url} did not finish within ${timeoutMs} ms`, {
        hint: 'raise the limit with --timeout or `# @timeout`',
      });
    const transport = status ?? (error as GrpcJs.StatusObject);
    return (
      transportFailure({ ...transport, code: code ?? 2, details }, target, url) ??
      new DialError('E_NETWORK', `gRPC call to ${url} failed: ${details}`, { cause: error })
    );
  };
  try {
    let schema: GrpcMethodSchema;
    try {
      schema = await schemaFor(target, client, metadata, deadline, options);
    } catch (error) {
      throw fail(undefined, error);
    }
    const bodyText = requestText(request);
    const argument = encodeMessage(schema.requestType, bodyText);
    const record: CallRecord = { started, messages: [] };
    options.onMessage?.({
      direction: 'sent',
      data: bodyText.trim() ? JSON.stringify(JSON.parse(bodyText)) : '{}',
      event: schema.requestType.fullName.replace(/^\./, ''),
      atMs: nowMs() - started,
    });
    await runCall(client, schema, argument, metadata, deadline ? { deadline } : {}, record, options);
    const status = record.status as GrpcJs.StatusObject;
    const gotAnswer = record.initialMetadata !== undefined || record.messages.length > 0;
    const cancelled = status.code === 1 && options.signal?.aborted;
    const outOfTime = status.code === 4 && deadline !== undefined && Date.now() >= deadline.getTime() - 50;
    if (cancelled || outOfTime || (!gotAnswer && transportFailure(status, target, url)))
      throw fail(status, new Error(status.details));
    return exchangeOf(request, url, bodyText, schema, record);
  } finally {
    client.close();
  }
}

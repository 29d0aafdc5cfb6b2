/**
 * The target of a `GRPC` request line, in the spellings of the tools that write them:
 *
 *   GRPC localhost:50051/helloworld.Greeter/SayHello          JetBrains, httpyac (plaintext)
 *   GRPC grpcs://api.example.com/helloworld.Greeter/SayHello  TLS (also https://; grpc:// and http:// are plaintext)
 *   GRPC -plaintext localhost:50051 helloworld.Greeter/SayHello   kulala (grpcurl's words: TLS unless -plaintext)
 *
 * and the request's metadata that says where the schema comes from (`# @grpc-proto`,
 * `# @grpc-import-path`, `# @grpc-plaintext`). Pure: the parser checks a target written
 * without variables with it, the session builds the request from the resolved one.
 */

/** Where the schema of a gRPC request comes from, and how its channel is secured beyond the URL's scheme. */
export interface GrpcRequestOptions {
  /** `.proto` files (absolute once the session resolved them); none = server reflection. */
  protoFiles: string[];
  /** Folders searched for the files' imports. */
  importPaths: string[];
  /** Compiled descriptor sets (grpcurl's `-protoset`, kulala's `# @grpc-protoset`), read instead of .proto files. */
  protosetFiles?: string[];
  /** TLS without checking the server's certificate (kulala's `-insecure`). */
  insecure?: boolean;
  /** The TLS server name and `:authority` (kulala's `-authority` / `# @grpc-authority`, as grpcurl's). */
  authority?: string;
  /** kulala's `list` / `describe [symbol]`: no method is called (send.ts answers with JSON). */
  command?: GrpcCommand;
}

/** kulala's `GRPC host:port list` and `GRPC host:port describe [package.Service]`. */
export interface GrpcCommand {
  kind: 'list' | 'describe';
  symbol?: string;
  address: string;
  tls: boolean;
}

/** A gRPC target read from a request line and its metadata. */
export interface GrpcTarget extends GrpcRequestOptions {
  /** `host:port`. */
  address: string;
  /** Fully qualified service name, `package.Service`. */
  service: string;
  method: string;
  tls: boolean;
}

/** A target dial cannot read or will not send; the caller adds the place. */
export class GrpcTargetError extends Error {
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
    this.name = 'GrpcTargetError';
  }
}

/** The metadata keys of gRPC requests dial reads (kulala's, and `@proto` as a short form). */
export const GRPC_METADATA_KEYS: ReadonlySet<string> = new Set([
  'grpc-proto',
  'proto',
  'grpc-import-path',
  'grpc-plaintext',
  'grpc-insecure',
  'grpc-authority',
  'grpc-protoset',
  'grpc-v',
]);

const FLAG_HINT =
  'dial reads -plaintext, -insecure, -authority NAME, -proto FILE, -protoset FILE and -import-path DIR on a GRPC line';

interface Flags {
  plaintext: boolean;
  insecure: boolean;
  authority?: string;
  protoFiles: string[];
  protosets: string[];
  importPaths: string[];
}

/** kulala's grpcurl flags before the address: `-plaintext -proto x.proto -import-path ../protos`. */
function takeFlags(words: string[]): Flags {
  const flags: Flags = { plaintext: false, insecure: false, protoFiles: [], protosets: [], importPaths: [] };
  while (words.length > 0 && words[0].startsWith('-')) {
    const word = words.shift() as string;
    const equals = word.indexOf('=');
    const name = (equals > 0 ? word.slice(0, equals) : word).replace(/^--?/, '');
    const inlineValue = equals > 0 ? word.slice(equals + 1) : undefined;
    const value = (): string => {
      const taken = inlineValue ?? words.shift();
      if (!taken) throw new GrpcTargetError(`-${name} needs a value`, FLAG_HINT);
      return taken;
    };
    if (name === 'plaintext') flags.plaintext = inlineValue !== 'false';
    else if (name === 'insecure') flags.insecure = inlineValue !== 'false';
    else if (name === 'proto') flags.protoFiles.push(value());
    else if (name === 'import-path') flags.importPaths.push(value());
    else if (name === 'authority') flags.authority = value();
    else if (name === 'protoset') flags.protosets.push(value());
    else if (name === 'v' || name === 'vv')
      continue; // grpcurl's verbosity: dial shows the exchange anyway
    else throw new GrpcTargetError(`the grpcurl flag -${name} is not supported`, FLAG_HINT);
  }
  return flags;
}

/** `package.Service/Method` or grpcurl's `package.Service.Method`. */
function serviceAndMethod(text: string): { service: string; method: string } {
  const slash = text.lastIndexOf('/');
  const cut = slash >= 0 ? slash : text.lastIndexOf('.');
  const service = text.slice(0, cut);
  const method = text.slice(cut + 1);
  if (cut <= 0 || !method || !/^[A-Za-z_][\w.]*$/.test(service) || !/^[A-Za-z_]\w*$/.test(method)) {
    throw new GrpcTargetError(
      `'${text}' is not a gRPC method`,
      'name the method as package.Service/Method, e.g. helloworld.Greeter/SayHello',
    );
  }
  return { service, method };
}

function checkedAddress(address: string, tls: boolean): string {
  if (!/^(\[[0-9A-Fa-f:.]+\]|[\w.-]+)(:\d{1,5})?$/.test(address)) {
    throw new GrpcTargetError(`'${address}' is not a host:port`, 'write the server as host:port, e.g. localhost:50051');
  }
  return /:\d+$/.test(address) && !/^\[[^\]]*\]$/.test(address) ? address : `${address}:${tls ? 443 : 80}`;
}

/** `[scheme://]host:port/package.Service/Method` (JetBrains, httpyac). */
function oneWordTarget(word: string, flags: Flags): Omit<GrpcTarget, keyof GrpcRequestOptions> {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(word);
  const schemeName = scheme?.[1].toLowerCase();
  if (schemeName !== undefined && !['grpc', 'grpcs', 'http', 'https'].includes(schemeName)) {
    throw new GrpcTargetError(
      `a gRPC target cannot use ${schemeName}://`,
      'write grpc:// or http:// for plaintext, grpcs:// or https:// for TLS, or no scheme (plaintext)',
    );
  }
  const rest = scheme ? word.slice(scheme[0].length) : word;
  const slash = rest.indexOf('/');
  if (slash <= 0) {
    throw new GrpcTargetError(
      `'${word}' names no method`,
      'write GRPC host:port/package.Service/Method, e.g. GRPC localhost:50051/helloworld.Greeter/SayHello',
    );
  }
  const path = rest.slice(slash + 1);
  if (path.split('/').length > 2) {
    throw new GrpcTargetError(
      `a path before the service ('${path}') is not supported`,
      'write GRPC host:port/package.Service/Method',
    );
  }
  const tls = schemeName === 'grpcs' || schemeName === 'https';
  if (tls && flags.plaintext) {
    throw new GrpcTargetError(`${schemeName}:// asks for TLS and -plaintext for none`, 'keep one of them');
  }
  return {
    address: checkedAddress(rest.slice(0, slash), tls),
    ...serviceAndMethod(path),
    tls: tls && !flags.plaintext,
  };
}

/**
 * Reads a target (variables resolved) with the request's metadata. Throws GrpcTargetError for
 * what dial cannot send: a protoset, unknown flags, no address.
 */
export function parseGrpcTarget(text: string, metadata: ReadonlyArray<{ key: string; value: string }>): GrpcTarget {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const flags = takeFlags(words);
  for (const meta of metadata) {
    if (meta.key === 'grpc-plaintext') flags.plaintext = meta.value !== 'false';
    else if (meta.key === 'grpc-insecure') flags.insecure = meta.value !== 'false';
    else if (meta.key === 'grpc-proto' || meta.key === 'proto') flags.protoFiles.push(...meta.value.split(/\s+/));
    else if (meta.key === 'grpc-import-path') flags.importPaths.push(...meta.value.split(/\s+/));
    else if (meta.key === 'grpc-authority' && meta.value.trim()) flags.authority = meta.value.trim();
    else if (meta.key === 'grpc-protoset') flags.protosets.push(...meta.value.split(/\s+/));
  }
  flags.protoFiles = flags.protoFiles.filter(Boolean);
  flags.importPaths = flags.importPaths.filter(Boolean);
  const options = {
    protoFiles: flags.protoFiles,
    importPaths: flags.importPaths,
    ...(flags.protosets.some(Boolean) ? { protosetFiles: flags.protosets.filter(Boolean) } : {}),
    ...(flags.insecure ? { insecure: true } : {}),
    ...(flags.authority ? { authority: flags.authority } : {}),
  };
  const commandAt = words.findIndex((word) => word === 'list' || word === 'describe');
  if (commandAt >= 0) return { ...commandTarget(words, commandAt, flags), ...options };
  let target: Omit<GrpcTarget, keyof GrpcRequestOptions>;
  if (words.length === 1) {
    target = oneWordTarget(words[0], flags);
  } else if (words.length === 2) {
    // kulala passes the line to grpcurl, which speaks TLS unless told -plaintext.
    const tls = !flags.plaintext;
    target = { address: checkedAddress(words[0], tls), ...serviceAndMethod(words[1]), tls };
  } else {
    throw new GrpcTargetError(
      words.length === 0 ? 'a GRPC request needs a target' : `cannot read the gRPC target '${text.trim()}'`,
      "write GRPC host:port/package.Service/Method (or kulala's GRPC host:port package.Service/Method)",
    );
  }
  return { ...target, ...options };
}

/**
 * kulala's `host:port list` and `host:port describe [symbol]` (kulala-core's words): the server's
 * address first (a scheme chooses TLS as in a one-word target, else TLS unless -plaintext).
 */
function commandTarget(
  words: string[],
  at: number,
  flags: Flags,
): Omit<GrpcTarget, keyof GrpcRequestOptions> & { command: GrpcCommand } {
  const kind = words[at] as GrpcCommand['kind'];
  const before = words.slice(0, at);
  const after = words.slice(at + 1);
  if (before.length !== 1 || after.length > (kind === 'list' ? 0 : 1))
    throw new GrpcTargetError(
      `cannot read the gRPC \`${kind}\` line '${words.join(' ')}'`,
      kind === 'list' ? 'write GRPC host:port list' : 'write GRPC host:port describe [package.Service]',
    );
  const scheme = /^(grpcs?|https?):\/\//i.exec(before[0]);
  const schemeName = scheme?.[1].toLowerCase();
  const tls = schemeName ? (schemeName === 'grpcs' || schemeName === 'https') && !flags.plaintext : !flags.plaintext;
  const address = checkedAddress(scheme ? before[0].slice(scheme[0].length) : before[0], tls);
  const command: GrpcCommand = { kind, address, tls, ...(after[0] ? { symbol: after[0] } : {}) };
  return { address, service: '', method: '', tls, command };
}

/** The URL dial shows and sends a parsed target as: `grpc://host:port/package.Service/Method` (grpcs:// for TLS). */
export function grpcTargetUrl(target: Pick<GrpcTarget, 'address' | 'service' | 'method' | 'tls' | 'command'>): string {
  const origin = `${target.tls ? 'grpcs' : 'grpc'}://${target.address}`;
  if (target.command)
    return `${origin}/${target.command.kind}${target.command.symbol ? `/${target.command.symbol}` : ''}`;
  return `${origin}/${target.service}/${target.method}`;
}

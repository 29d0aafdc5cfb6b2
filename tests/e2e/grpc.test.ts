/**
 * `dial send` and `dial run` of GRPC requests, run as a user would (bin/dial.js), against real
 * gRPC servers on 127.0.0.1:0 (examples-grpc/greeter-server.mjs): reflection, .proto files,
 * both spellings (JetBrains, kulala), metadata, streaming printed live, error statuses and
 * their exit codes, TLS, and the refusals.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIAL_BIN, runCli, tempDir } from '../helpers/cli.js';
import { generateCertificate, type TestCertificate } from '../helpers/servers.js';
import { startGreeterServer, type GreeterServer } from '../../examples-grpc/greeter-server.mjs';

const examples = resolve(import.meta.dirname, '../../examples-grpc');
let reflecting: GreeterServer;
let bare: GreeterServer;
let secure: GreeterServer;
let certificate: TestCertificate;
let dir: string;

beforeAll(async () => {
  certificate = await generateCertificate();
  [reflecting, bare, secure] = await Promise.all([
    startGreeterServer(),
    startGreeterServer({ reflection: false }),
    startGreeterServer({ tls: { key: certificate.key, cert: certificate.cert } }),
  ]);
  dir = tempDir('dial-grpc-');
  mkdirSync(join(dir, 'protos', 'common'), { recursive: true });
  copyFileSync(join(examples, 'greeter.proto'), join(dir, 'protos', 'greeter.proto'));
  copyFileSync(join(examples, 'common', 'types.proto'), join(dir, 'protos', 'common', 'types.proto'));
  writeFileSync(
    join(dir, 'greeter.http'),
    `@reflecting = ${reflecting.address}
@bare = ${bare.address}

### hello
GRPC {{reflecting}}/dial.test.Greeter/SayHello
x-greeting: hi from metadata

{"name": "Ada", "sender_info": {"first_name": "Ada", "lucky_number": 42}}

?? status == 200
?? body $.senderInfo.luckyNumber == "42"
?? header x-trailer == "done"

### stream
GRPC {{reflecting}}/dial.test.Greeter/StreamGreetings

{"name": "Bo", "times": 5}

?? body $[4].message == "Hello Bo #5"

### proto file
# @grpc-proto protos/greeter.proto
GRPC grpc://{{bare}}/dial.test.Greeter/SayHello

{"name": "Cy"}

?? body $.message == "Hello Cy"

### kulala
# @grpc-import-path protos
GRPC -plaintext -proto greeter.proto {{bare}} dial.test.Greeter/SayHello
Content-Type: application/json

{"name": "Di"}

?? body $.message == "Hello Di"

### expected failure
GRPC {{reflecting}}/dial.test.Greeter/Fail

{"code": 5, "detail": "no such greeting"}

?? status == 404
?? header grpc-message == "no such greeting"
`,
  );
  writeFileSync(
    join(dir, 'failing.http'),
    `### unexpected failure
GRPC ${reflecting.address}/dial.test.Greeter/Fail

{"code": 7, "detail": "go away"}
`,
  );
  writeFileSync(
    join(dir, 'tls.http'),
    `### tls
GRPC grpcs://localhost:${secure.port}/dial.test.Greeter/SayHello

{"name": "Eve"}
`,
  );
});
afterAll(() => {
  reflecting.forceClose();
  bare.forceClose();
  secure.forceClose();
});

describe('dial send GRPC', () => {
  it('calls a unary method by reflection; headers are metadata; the body is the message JSON', async () => {
    const result = await runCli(['send', 'greeter.http#hello'], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      message: 'Hello Ada',
      index: 0,
      echoedMetadata: 'hi from metadata',
      mood: 'MOOD_UNSPECIFIED',
      senderInfo: { firstName: 'Ada', luckyNumber: '42' },
      labels: {},
      answeredAt: { seconds: '1700000000', nanos: 5 },
    });
  });

  it('-v shows the request, the response metadata, trailers and the gRPC status', async () => {
    const result = await runCli(['send', '-v', 'greeter.http#hello'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`GRPC grpc://${reflecting.address}/dial.test.Greeter/SayHello`);
    expect(result.stdout).toContain('x-greeting: hi from metadata');
    expect(result.stdout).toMatch(/HTTP\/2 200 OK/);
    expect(result.stdout).toContain('x-served-by: greeter-server');
    expect(result.stdout).toContain('x-trailer: done');
    expect(result.stdout).toContain('grpc-status: 0');
  });

  it('prints each streamed message as it arrives, one JSON line each in a pipe', async () => {
    const child = spawn(process.execPath, [DIAL_BIN, 'send', 'greeter.http#stream'], {
      cwd: dir,
      env: { ...process.env, DIAL_CONFIG_DIR: tempDir('dial-config-') },
    });
    const arrivals: Array<{ at: number; text: string }> = [];
    child.stdout.on('data', (chunk: Buffer) => arrivals.push({ at: Date.now(), text: chunk.toString('utf8') }));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    const closedAt = Date.now();
    expect(code).toBe(0);
    const lines = arrivals
      .map((arrival) => arrival.text)
      .join('')
      .trimEnd()
      .split('\n');
    expect(lines.map((line) => JSON.parse(line).message)).toEqual([1, 2, 3, 4, 5].map((n) => `Hello Bo #${n}`));
    // The server sends them 50 ms apart: the first was on stdout well before the call ended.
    expect(closedAt - arrivals[0].at).toBeGreaterThan(150);
  });

  it('reads the schema from a .proto file: `# @grpc-proto` and kulala `-proto` with `-import-path`', async () => {
    const jetbrains = await runCli(['send', 'greeter.http#proto file'], { cwd: dir });
    expect(jetbrains.code).toBe(0);
    expect(JSON.parse(jetbrains.stdout).message).toBe('Hello Cy');
    const kulala = await runCli(['send', 'greeter.http#kulala'], { cwd: dir });
    expect(kulala.stderr).toBe('');
    expect(JSON.parse(kulala.stdout).message).toBe('Hello Di');
  });

  it('exits 1 on an error status, naming the gRPC status and message', async () => {
    const result = await runCli(['send', 'failing.http'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error[E_HTTP_STATUS]: gRPC status PERMISSION_DENIED (7): go away');
  });

  it('speaks TLS to grpcs:// with --cacert or --insecure, and fails E_TLS (exit 4) without', async () => {
    const trusted = await runCli(['send', '--cacert', certificate.certPath, 'tls.http'], { cwd: dir });
    expect(trusted.stderr).toBe('');
    expect(JSON.parse(trusted.stdout).message).toBe('Hello Eve');
    const insecure = await runCli(['send', '--insecure', 'tls.http'], { cwd: dir });
    expect(JSON.parse(insecure.stdout).message).toBe('Hello Eve');
    const untrusted = await runCli(['send', 'tls.http'], { cwd: dir });
    expect(untrusted.code).toBe(4);
    expect(untrusted.stderr).toContain('error[E_TLS]');
  });

  it('--offline prints the request as dial would send it; curl has no form for it', async () => {
    const offline = await runCli(['send', '--offline', 'greeter.http#hello'], { cwd: dir });
    expect(offline.code).toBe(0);
    expect(offline.stdout).toContain(`GRPC grpc://${reflecting.address}/dial.test.Greeter/SayHello`);
    expect(offline.stdout).toContain('x-greeting: hi from metadata');
    const curl = await runCli(['export', 'curl', 'greeter.http#hello'], { cwd: dir });
    expect(curl.code).toBe(3);
    expect(curl.stderr).toMatch(/greeter\.http:\d+: a gRPC request has no curl form/);
    const flag = await runCli(['send', '--curl', 'greeter.http#hello'], { cwd: dir });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--curl cannot print a gRPC call');
  });

  it('-o and --download are refused (exit 2), not ignored while the messages go to stdout', async () => {
    for (const flags of [['-o', 'saved.json'], ['--download']]) {
      const refused = await runCli(['send', ...flags, 'greeter.http#hello'], { cwd: dir });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('does not apply to a gRPC call');
      expect(refused.stdout).toBe('');
    }
    expect(existsSync(join(dir, 'saved.json'))).toBe(false);
  });

  it('a stream cut by --timeout keeps what arrived and says the call did not finish (not "no answer"), exit 4', async () => {
    writeFileSync(
      join(dir, 'endless.http'),
      `GRPC ${reflecting.address}/dial.test.Greeter/StreamGreetings\n\n{"name": "Bo", "times": 1000}\n`,
    );
    const result = await runCli(['send', '--timeout', '1s', 'endless.http'], { cwd: dir });
    expect(result.code).toBe(4);
    expect(result.stdout).toContain('"message":"Hello Bo #1"');
    expect(result.stderr).toContain('error[E_TIMEOUT]: the gRPC call to grpc://');
    expect(result.stderr).toContain('did not finish within 1000 ms');
  });

  it('reports a refused connection with exit 4', async () => {
    const gone = await startGreeterServer();
    gone.forceClose();
    const file = join(dir, 'gone.http');
    writeFileSync(file, `GRPC ${gone.address}/dial.test.Greeter/SayHello\n`);
    const result = await runCli(['send', file], { cwd: dir });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('error[E_CONNREFUSED]');
  });
});

describe('dial run GRPC', () => {
  it('runs every spelling and passes asserted error statuses', async () => {
    const result = await runCli(['run', 'greeter.http'], { cwd: dir });
    expect(result.stdout).toContain('5 passed, 0 failed');
    expect(result.code).toBe(0);
  });

  it('fails a non-OK status nobody asserted on', async () => {
    const result = await runCli(['run', 'failing.http'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('gRPC status is OK');
    expect(result.stdout).toContain('7 (PERMISSION_DENIED: go away)');
  });
});

describe('httpyac spellings', () => {
  it('reads a bare grpc:// request line and the channelCredentials header (TLS, not metadata)', async () => {
    writeFileSync(
      join(dir, 'httpyac.http'),
      `### bare url
grpc://${reflecting.address}/dial.test.Greeter/SayHello

{"name": "Fay"}

?? body $.message == "Hello Fay"

### channel credentials
GRPC localhost:${secure.port}/dial.test.Greeter/SayHello
channelCredentials: ssl

{"name": "Gus"}

?? body $.message == "Hello Gus"
`,
    );
    const result = await runCli(['run', '--cacert', certificate.certPath, 'httpyac.http'], { cwd: dir });
    expect(result.stdout).toContain('2 passed, 0 failed');
    expect(result.code).toBe(0);
  });

  it('reads `proto <` lines with their includeDirs, for the whole file or one request', async () => {
    writeFileSync(
      join(dir, 'httpyac-proto.http'),
      `proto < ./protos/greeter.proto
keepCase: true
longs: String

### from the file's proto
GRPC ${bare.address}/dial.test.Greeter/SayHello

{"name": "Hal"}

?? body $.message == "Hello Hal"

### from its own proto
proto < greeter.proto
includeDirs: ["./protos"]
GRPC ${bare.address}/dial.test.Greeter/SayHello

{"name": "Ivy"}

?? body $.message == "Hello Ivy"
`,
    );
    const result = await runCli(['run', 'httpyac-proto.http'], { cwd: dir });
    expect(result.stdout).toContain('2 passed, 0 failed');
    expect(result.code).toBe(0);
    const formatted = await runCli(['fmt', '--check', 'httpyac-proto.http'], { cwd: dir });
    expect(formatted.code).toBe(0);
  });
});

describe('GRPC refusals, with file:line, before anything is sent', () => {
  const refusals: Array<[string, string]> = [
    ['###\nGRPC localhost:50051 list extra\n', 'cannot read the gRPC `list` line'],
    ['###\nGRPC -H x:y localhost:50051 a.B/C\n', 'the grpcurl flag -H is not supported'],
    [
      'proto < ./greeter.proto\nkeepCase: true\nresolver: x\n\n###\nGRPC localhost:50051/a.B/C\n',
      "the proto-loader option 'resolver' is not supported",
    ],
    ['###\nGRPC ws://localhost:50051/a.B/C\n', 'a gRPC target cannot use ws://'],
    ['###\nGRPC localhost:50051/helloworld\n', "'helloworld' is not a gRPC method"],
  ];
  it.each(refusals)('%j', async (text, message) => {
    const file = join(dir, `refused-${refusals.findIndex(([t]) => t === text)}.http`);
    writeFileSync(file, text);
    const result = await runCli(['run', file], { cwd: dir });
    expect(result.code).toBe(3);
    const line = text.split('\n').findIndex((row) => /^(GRPC|resolver)/.test(row)) + 1;
    expect(result.stderr).toContain(`${file}:${line}`);
    expect(result.stderr).toContain(message);
  });
});

describe("kulala's list, describe and shared gRPC metadata", () => {
  it('list names the services reflection offers; describe gives each service with its methods (JSON, as kulala-core)', async () => {
    const file = join(dir, 'kulala-commands.http');
    writeFileSync(
      file,
      [
        '### Shared',
        '# @grpc-plaintext',
        'NOP',
        '',
        '### list',
        `GRPC ${reflecting.address} list`,
        '',
        '### describe by reflection',
        `GRPC ${reflecting.address} describe dial.test.Greeter`,
        '',
        '### describe from the .proto (the bare server has no reflection)',
        '# @grpc-proto protos/greeter.proto',
        `GRPC ${bare.address} describe Greeter`,
        '',
        '### call, plaintext from the shared block',
        '# @grpc-proto protos/greeter.proto',
        `GRPC ${bare.address} dial.test.Greeter/SayHello`,
        '',
        '{"name": "Di"}',
        '',
      ].join('\n'),
    );
    const result = await runCli(['run', file, '--reporter', 'json', '--verbose'], { cwd: dir });
    expect(result.code).toBe(0);
    const methods = ['SayHello', 'StreamGreetings', 'Fail', 'Collect'];
    const list = await runCli(['send', `${file}#list`], { cwd: dir });
    expect(JSON.parse(list.stdout)).toEqual(expect.arrayContaining(['dial.test.Greeter']));
    const reflected = await runCli(['send', `${file}#describe by reflection`], { cwd: dir });
    expect(JSON.parse(reflected.stdout)).toEqual({ 'dial.test.Greeter': methods });
    const fromProto = await runCli(['send', `${file}#describe from the .proto (the bare server has no reflection)`], {
      cwd: dir,
    });
    expect(JSON.parse(fromProto.stdout)).toEqual({ 'dial.test.Greeter': methods });
  });
});

describe('compiled descriptor sets (grpcurl -protoset, kulala # @grpc-protoset)', () => {
  it('calls and describes a server without reflection from a protoset file', async () => {
    // The set protoc --descriptor_set_out writes: a FileDescriptorSet of greeter.proto and its import.
    const protobuf = (await import('protobufjs')).default;
    const descriptor = (await import('protobufjs/ext/descriptor')) as unknown as {
      FileDescriptorSet: { encode(message: unknown): { finish(): Uint8Array } };
    };
    const root = new protobuf.Root();
    root.resolvePath = (_origin, target) => join(dir, 'protos', target);
    await root.load('greeter.proto', { keepCase: true });
    const set = (root as unknown as { toDescriptor(syntax: string): unknown }).toDescriptor('proto3');
    writeFileSync(join(dir, 'greeter.protoset'), descriptor.FileDescriptorSet.encode(set).finish());
    const file = join(dir, 'protoset.http');
    writeFileSync(
      file,
      [
        '### call',
        '# @grpc-protoset greeter.protoset',
        `GRPC -plaintext ${bare.address} dial.test.Greeter/SayHello`,
        '',
        '{"name": "Eve"}',
        '',
        '### describe',
        `GRPC -plaintext -protoset greeter.protoset ${bare.address} describe`,
        '',
      ].join('\n'),
    );
    const call = await runCli(['send', `${file}#call`], { cwd: dir });
    expect(call.code).toBe(0);
    expect(JSON.parse(call.stdout).message).toContain('Eve');
    const described = await runCli(['send', `${file}#describe`], { cwd: dir });
    expect(JSON.parse(described.stdout)).toEqual({
      'dial.test.Greeter': ['SayHello', 'StreamGreetings', 'Fail', 'Collect'],
    });
  });
});

describe('GRPC requests the schema refuses: dial send names the request line', () => {
  it.each([
    ['SayHello', '{"nmae": "x"}', "dial.test.HelloRequest has no field 'nmae'"],
    ['SayHello', '{bad json', 'the gRPC request body is not JSON'],
    ['Nope', '{}', "service 'dial.test.Greeter' has no method 'Nope'"],
    ['Collect', '{}', 'is a client-streaming method'],
  ])('%s %s', async (method, body, message) => {
    const file = join(dir, `schema-refused-${method}-${body.length}.http`);
    writeFileSync(file, `### refused\nGRPC ${reflecting.address}/dial.test.Greeter/${method}\n\n${body}\n`);
    const result = await runCli(['send', file], { cwd: dir });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`error[E_INPUT] ${file}:2: `);
    expect(result.stderr).toContain(message);
  });
});

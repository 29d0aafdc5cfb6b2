/** GRPC request lines in the spellings of JetBrains, kulala and httpyac, read by the parser and the target reader. */
import { describe, expect, it } from 'vitest';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';
import { isDialError } from '../../../src/core/errors.js';
import { grpcTargetUrl, parseGrpcTarget } from '../../../src/core/http/grpc/target.js';

function refusal(text: string): { message: string; line?: number } {
  try {
    parseHttpFile(text, 'f.http');
  } catch (error) {
    if (!isDialError(error)) throw error;
    return { message: error.message, line: error.location?.line };
  }
  throw new Error('expected a refusal');
}

describe('GRPC targets', () => {
  it('reads each spelling, with TLS as each tool decides', () => {
    const url = (text: string, metadata: Array<{ key: string; value: string }> = []) =>
      grpcTargetUrl(parseGrpcTarget(text, metadata));
    expect(url('localhost:50051/helloworld.Greeter/SayHello')).toBe(
      'grpc://localhost:50051/helloworld.Greeter/SayHello',
    );
    expect(url('grpcs://api.example.com/helloworld.Greeter/SayHello')).toBe(
      'grpcs://api.example.com:443/helloworld.Greeter/SayHello',
    );
    expect(url('https://h:8443/a.B/C')).toBe('grpcs://h:8443/a.B/C');
    expect(url('http://h/a.B/C')).toBe('grpc://h:80/a.B/C');
    // kulala passes the line to grpcurl: TLS unless -plaintext (or @grpc-plaintext).
    expect(url('localhost:50051 helloworld.Greeter/SayHello')).toBe(
      'grpcs://localhost:50051/helloworld.Greeter/SayHello',
    );
    expect(url('-plaintext localhost:50051 helloworld.Greeter.SayHello')).toBe(
      'grpc://localhost:50051/helloworld.Greeter/SayHello',
    );
    expect(url('localhost:50051 a.B/C', [{ key: 'grpc-plaintext', value: '' }])).toBe('grpc://localhost:50051/a.B/C');
    expect(
      parseGrpcTarget('-proto a.proto -import-path=../p -insecure h:1 a.B/C', [
        { key: 'grpc-proto', value: 'b.proto' },
      ]),
    ).toMatchObject({
      protoFiles: ['a.proto', 'b.proto'],
      importPaths: ['../p'],
      insecure: true,
      tls: true,
    });
  });

  it('parses GRPC and bare grpc:// lines as GRPC requests, keeping kulala spaces', () => {
    const file = parseHttpFile(
      '### a\nGRPC {{host}}/a.B/C\n\n{}\n\n### b\nGRPC -plaintext localhost:1 a.B/C\n\n### c\ngrpc://localhost:1/a.B/C\n',
      '',
    );
    expect(file.requests.map((request) => [request.method, request.url])).toEqual([
      ['GRPC', '{{host}}/a.B/C'],
      ['GRPC', '-plaintext localhost:1 a.B/C'],
      ['GRPC', 'grpc://localhost:1/a.B/C'],
    ]);
    expect(file.requests[2].methodExplicit).toBe(false);
  });

  it('attaches httpyac proto imports to the gRPC requests of their block, and file-wide from a block without a request', () => {
    const file = parseHttpFile(
      'proto < ./all.proto\nincludeDirs: ["inc"]\n\n### a\nproto < one.proto\nGRPC h:1/a.B/C\n\n### b\nGET http://x/\n',
      '',
    );
    expect(file.requests[0].grpcProtos).toEqual([
      { path: './all.proto', importPaths: ['inc'] },
      { path: 'one.proto', importPaths: [] },
    ]);
    expect(file.requests[1].grpcProtos).toBeUndefined();
  });

  it("reads kulala's list / describe commands and -authority / # @grpc-authority", () => {
    expect(parseGrpcTarget('localhost:1 describe a.B', [{ key: 'grpc-plaintext', value: '' }])).toMatchObject({
      command: { kind: 'describe', symbol: 'a.B', address: 'localhost:1', tls: false },
    });
    expect(parseGrpcTarget('-plaintext grpc://h:2 list', []).command).toEqual({
      kind: 'list',
      address: 'h:2',
      tls: false,
    });
    expect(grpcTargetUrl(parseGrpcTarget('grpcs://h:3 describe', []))).toBe('grpcs://h:3/describe');
    expect(parseGrpcTarget('-authority real.example.com localhost:443 a.B/C', []).authority).toBe('real.example.com');
    expect(
      parseGrpcTarget('localhost:443 a.B/C', [{ key: 'grpc-authority', value: 'real.example.com' }]).authority,
    ).toBe('real.example.com');
  });

  it('refuses what it cannot send at the line', () => {
    expect(refusal('\n\nGRPC localhost:1 describe a.B c.D\n')).toEqual({
      message: "gRPC target: cannot read the gRPC `describe` line 'localhost:1 describe a.B c.D'",
      line: 3,
    });
    expect(refusal('GRPC list\n').message).toContain('`list`');
    expect(refusal('GRPC -H x:y localhost:1 a.B/C\n').message).toContain('-H is not supported');
    expect(refusal('# @grpc-plaintext\nGRPC grpcs://h/a.B/C\n').message).toContain('-plaintext');
    expect(refusal('GRPC h:1/prefix/a.B/C\n').message).toContain('a path before the service');
    expect(refusal('proto < a.proto\nincludeDirs: "inc"\nGRPC h:1/a.B/C\n')).toMatchObject({ line: 2 });
  });
});

/**
 * What `dial send` prints of the request (--offline, -p HB, -v) is the request as sent: the
 * engine's default headers (Host, Accept-Encoding, Connection, Content-Length) and the same
 * multipart boundary in Content-Type and body — checked against what a real server received.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecordingServer, type RecordedRequest, type TestServer } from '../helpers/servers.js';

let server: TestServer & { requests: RecordedRequest[] };
let dir: string;

beforeAll(async () => {
  server = await startRecordingServer((_request, response) => response.end('ok'));
  dir = tempDir('dial-wire-');
  writeFileSync(join(dir, 'note.txt'), 'hello\nfile\n');
  writeFileSync(join(dir, 'body.json'), '{"from": "file"}\n');
});

afterAll(() => server.close());

interface Printed {
  requestLine: string;
  headers: Array<[string, string]>;
  body: string;
}

/** Splits a printed request (pipe output: exact bytes) into its head and body. */
function parsePrinted(stdout: string): Printed {
  const end = stdout.indexOf('\n\n');
  const head = end < 0 ? stdout.replace(/\n$/, '') : stdout.slice(0, end);
  const [requestLine, ...lines] = head.split('\n');
  const headers = lines.map((line): [string, string] => [
    line.slice(0, line.indexOf(':')),
    line.slice(line.indexOf(':') + 1).trim(),
  ]);
  return { requestLine, headers, body: end < 0 ? '' : stdout.slice(end + 2) };
}

/** Headers as a sorted list of `name: value` (names lower-cased): equal modulo order. */
function normalised(headers: Array<[string, string]>): string[] {
  return headers.map(([name, value]) => `${name.toLowerCase()}: ${value}`).sort();
}

function received(request: RecordedRequest): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (let index = 0; index < request.rawHeaders.length; index += 2)
    pairs.push([request.rawHeaders[index], request.rawHeaders[index + 1]]);
  return pairs;
}

function boundaryOf(headers: Array<[string, string]>): string | undefined {
  const type = headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  return /boundary=(\S+)/.exec(type ?? '')?.[1];
}

/** The same text with any dial boundary replaced (two runs pick two random boundaries of one length). */
const sameBoundary = (text: string): string => text.replace(/----dial[0-9a-f]{24}/g, '----dialBOUNDARY');

const cases: Array<{ name: string; args: string[] }> = [
  { name: 'json', args: ['name=Ann', 'age:=30', 'X-Api:1'] },
  { name: 'form', args: ['--form', 'name=Ann', 'q==1'] },
  { name: 'multipart', args: ['--multipart', 'a=1', 'upload@note.txt'] },
  { name: 'a bare @file body', args: ['PUT', '@body.json'] },
];

describe('the printed request is the request as sent', () => {
  for (const { name, args } of cases) {
    it(`${name}: --offline and -p HB print the head and body the server receives`, async () => {
      const flags = args.filter((arg) => arg.startsWith('--'));
      const rest = args.filter((arg) => !arg.startsWith('--'));
      const method = /^[A-Z]+$/.test(rest[0]) ? [rest.shift()!] : [];
      const target = [...flags, ...method, `${server.url}/wire`, ...rest];

      const offline = await runCli(['send', '--offline', ...target], { cwd: dir });
      expect(offline.code).toBe(0);
      const before = server.requests.length;
      const sent = await runCli(['send', '-p', 'HB', ...target], { cwd: dir });
      expect(sent.code).toBe(0);
      const [wire] = server.requests.slice(before);
      const wireHeaders = received(wire);

      // -p HB (printed while the request went out): the very head and body the server got.
      const printed = parsePrinted(sent.stdout);
      expect(printed.requestLine).toBe(`${wire.method} ${wire.url} HTTP/1.1`);
      expect(normalised(printed.headers)).toEqual(normalised(wireHeaders));
      expect(printed.body).toBe(wire.body.toString('utf8'));
      for (const header of ['host', 'accept-encoding', 'connection', 'content-length', 'content-type']) {
        expect(printed.headers.map(([key]) => key.toLowerCase())).toContain(header);
      }

      // --offline: the same head and body, but for the random boundary of another run.
      const shown = parsePrinted(offline.stdout);
      expect(shown.requestLine).toBe(printed.requestLine);
      expect(normalised(shown.headers).map(sameBoundary)).toEqual(normalised(wireHeaders).map(sameBoundary));
      expect(sameBoundary(shown.body)).toBe(sameBoundary(wire.body.toString('utf8')));

      if (name === 'multipart') {
        // One boundary in Content-Type and body, printed and sent.
        const boundary = boundaryOf(printed.headers)!;
        expect(boundary).toMatch(/^----dial[0-9a-f]{24}$/);
        expect(boundaryOf(wireHeaders)).toBe(boundary);
        expect(printed.body.startsWith(`--${boundary}\r\n`)).toBe(true);
        expect(printed.body).toContain('filename="note.txt"\r\nContent-Type: text/plain\r\n\r\nhello\nfile\n\r\n');
        const offlineBoundary = boundaryOf(shown.headers)!;
        expect(shown.body.startsWith(`--${offlineBoundary}\r\n`)).toBe(true);
        expect(shown.body.endsWith(`--${offlineBoundary}--\r\n`)).toBe(true);
      }
    });
  }

  it("-p H prints the engine's headers; a Header: item that removes a default is not printed either", async () => {
    const before = server.requests.length;
    const result = await runCli(['send', '-p', 'H', `${server.url}/h`, 'Accept-Encoding:', 'X-A:1'], { cwd: dir });
    const [wire] = server.requests.slice(before);
    const printed = parsePrinted(result.stdout);
    expect(normalised(printed.headers)).toEqual(normalised(received(wire)));
    expect(printed.headers.map(([key]) => key.toLowerCase())).not.toContain('accept-encoding');
    expect(printed.headers.map(([key]) => key.toLowerCase())).toEqual(
      expect.arrayContaining(['host', 'connection', 'x-a']),
    );
  });

  it('-v shows the same head as sent', async () => {
    const before = server.requests.length;
    const result = await runCli(['send', '-v', '--multipart', `${server.url}/v`, 'a=1'], { cwd: dir });
    expect(result.code).toBe(0);
    const [wire] = server.requests.slice(before);
    const printed = parsePrinted(result.stdout);
    expect(normalised(printed.headers)).toEqual(normalised(received(wire)));
    expect(result.stdout).toContain(wire.body.toString('utf8'));
  });
});

import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { pickRequest, promptValue } from '../../../src/commands/pick.js';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';
import { DialError } from '../../../src/core/errors.js';

const file = parseHttpFile(
  '### login\nPOST http://a/login\n\n### list\nGET http://a/widgets\n\n###\nDELETE http://a/x\n',
  'a.http',
);

function streams() {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = '';
  output.on('data', (chunk: Buffer) => (written += chunk.toString()));
  return { input, output, text: () => written };
}

/** Answers each question once it has been written (no fixed sleeps). */
function answer(io: ReturnType<typeof streams>, answers: string[]): void {
  let asked = 0;
  io.output.on('data', (chunk: Buffer) => {
    if (chunk.toString().includes(': ') && asked < answers.length) io.input.write(`${answers[asked++]}\n`);
  });
}

describe('pickRequest', () => {
  it('lists the requests on the output and accepts a number', async () => {
    const io = streams();
    answer(io, ['2']);
    const chosen = await pickRequest(file.requests, io);
    expect(chosen.name).toBe('list');
    expect(io.text()).toContain(
      'Which request?\n  1) login  POST http://a/login\n  2) list  GET http://a/widgets\n  3) DELETE http://a/x\n',
    );
  });

  it('accepts a name, and asks again after a wrong answer', async () => {
    const io = streams();
    answer(io, ['nine', 'login']);
    expect((await pickRequest(file.requests, io)).name).toBe('login');
    expect(io.text()).toContain("no request 'nine'");
  });

  it('end of input is E_CANCELLED', async () => {
    const io = streams();
    const pending = pickRequest(file.requests, io);
    io.input.end();
    await expect(pending).rejects.toBeInstanceOf(DialError);
    await expect(pending).rejects.toMatchObject({ code: 'E_CANCELLED' });
  });
});

describe('promptValue', () => {
  it('asks with the description and returns the trimmed answer', async () => {
    const io = streams();
    answer(io, ['  123456 ']);
    expect(await promptValue('otp', 'Your one-time code', io)).toBe('123456');
    expect(io.text()).toContain('Your one-time code (otp): ');
  });
});

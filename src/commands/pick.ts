/**
 * Terminal prompts for `dial send FILE.http` (which request? what value for `# @prompt`?):
 * plain node:readline on stderr/stdin, no Ink. Only used when stdin and stdout are a TTY.
 */
import type { RequestNode } from '../core/httpfile/types.js';
import { DialError } from '../core/errors.js';

export interface PromptStreams {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}

const defaultStreams = (): PromptStreams => ({ input: process.stdin, output: process.stderr });

/** Asks one question; Ctrl+C or end of input is E_CANCELLED. */
async function ask(question: string, streams: PromptStreams): Promise<string> {
  const { createInterface } = await import('node:readline');
  return new Promise((resolve, reject) => {
    const rl = createInterface({
      input: streams.input,
      output: streams.output,
      terminal: Boolean((streams.input as NodeJS.ReadStream).isTTY),
    });
    let answered = false;
    rl.on('SIGINT', () => rl.close());
    rl.on('close', () => {
      if (!answered) {
        streams.output.write('\n');
        reject(new DialError('E_CANCELLED', 'cancelled'));
      }
    });
    rl.question(question, (answer) => {
      answered = true;
      rl.close();
      resolve(answer.trim());
    });
  });
}

/** Asks on the terminal which request to send: a numbered list, answered by number or name. */
export async function pickRequest(
  requests: RequestNode[],
  streams: PromptStreams = defaultStreams(),
): Promise<RequestNode> {
  const width = String(requests.length).length;
  const lines = requests.map((request, i) => {
    const name = request.name ?? '';
    return `  ${String(i + 1).padStart(width)}) ${name ? `${name}  ` : ''}${request.method} ${request.url}`;
  });
  streams.output.write(`Which request?\n${lines.join('\n')}\n`);
  for (let attempt = 0; attempt < 3; attempt++) {
    const answer = await ask(`request [1-${requests.length} or name]: `, streams);
    const byNumber = /^\d+$/.test(answer) ? requests[Number(answer) - 1] : undefined;
    const chosen = byNumber ?? requests.find((request) => request.name === answer);
    if (chosen) return chosen;
    streams.output.write(`no request '${answer}'\n`);
  }
  throw new DialError('E_USAGE', 'no request chosen', {
    hint: 'name it on the command line: dial send FILE.http#NAME',
  });
}

/** Asks on the terminal for a `# @prompt` variable's value. */
export async function promptValue(
  name: string,
  description?: string,
  streams: PromptStreams = defaultStreams(),
): Promise<string> {
  return ask(`${description ? `${description} ` : ''}(${name}): `, streams);
}

/**
 * The messages a WebSocket request sends, read from its body (docs/websocket.md): JetBrains
 * separates messages with `===` lines and pauses for the server with `=== wait-for-server`;
 * httpyac sends the whole body as one message, which is the same thing when the body has no
 * `===` line. Pure: no socket here.
 */
import { DialError } from '../../errors.js';

/** One step of a conversation: send a message, or wait for the next message from the server. */
export type WebSocketStep = { kind: 'send'; data: string | Uint8Array } | { kind: 'wait' };

const SEPARATOR_RE = /^===(?:[ \t]+(.*?))?[ \t]*$/;

/** The steps a body text holds, in order. Empty messages (a leading `===`, blank runs) are dropped. */
export function websocketScript(text: string): WebSocketStep[] {
  const steps: WebSocketStep[] = [];
  let message: string[] = [];
  const flush = (): void => {
    const data = trimBlankLines(message).join('\n');
    if (data.length > 0) steps.push({ kind: 'send', data });
    message = [];
  };
  const lines = text.split(/\r?\n/);
  for (const [index, line] of lines.entries()) {
    const separator = SEPARATOR_RE.exec(line);
    if (!separator) {
      message.push(line);
      continue;
    }
    flush();
    const word = separator[1];
    if (word === undefined || word === '') continue;
    if (word.toLowerCase() !== 'wait-for-server') {
      // A misspelt marker sent as text would be silently wrong: refuse it.
      throw new DialError('E_PARSE', `unknown WebSocket separator '=== ${word}' (line ${index + 1} of the body)`, {
        hint: 'write `===` between messages, or `=== wait-for-server` to wait for a server message',
      });
    }
    steps.push({ kind: 'wait' });
  }
  flush();
  return steps;
}

function trimBlankLines(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start].trim() === '') start++;
  while (end > start && lines[end - 1].trim() === '') end--;
  return lines.slice(start, end);
}

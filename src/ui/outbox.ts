/**
 * The composer's side of an open WebSocket: messages typed in the workbench queue here and the
 * conversation reads them in order (an async iterable that ends when the WebSocket closes).
 */
import type { MessageComposer } from './services.js';

export class Outbox implements MessageComposer {
  private readonly queue: string[] = [];
  private waiting: ((result: IteratorResult<string>) => void) | undefined;
  private closed = false;
  private readonly controller = new AbortController();
  readonly stop = this.controller.signal;

  /** Queues a message for the WebSocket. */
  push(text: string): void {
    if (this.closed) return;
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting) waiting({ value: text, done: false });
    else this.queue.push(text);
  }

  /** Closes the WebSocket gracefully (close 1000): the messages so far are kept. */
  close(): void {
    this.closed = true;
    this.controller.abort();
    this.waiting?.({ value: undefined, done: true });
    this.waiting = undefined;
  }

  readonly messages: AsyncIterable<string> = {
    [Symbol.asyncIterator]: () => ({
      next: (): Promise<IteratorResult<string>> => {
        const text = this.queue.shift();
        if (text !== undefined) return Promise.resolve({ value: text, done: false });
        if (this.closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (this.waiting = resolve));
      },
    }),
  };
}

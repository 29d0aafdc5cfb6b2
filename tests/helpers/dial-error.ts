import { expect } from 'vitest';
import { DialError } from '../../src/core/errors.js';

/** Awaits a promise that must reject with a DialError, and returns that error for its code and text. */
export async function dialErrorOf(promise: Promise<unknown>): Promise<DialError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(DialError);
    return error as DialError;
  }
  throw new Error('expected the promise to reject with a DialError');
}

/** Runs `run`, which must throw a DialError, and returns that error for its code and text. */
export function dialErrorThrownBy(run: () => unknown): DialError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DialError);
    return error as DialError;
  }
  throw new Error('expected a DialError to be thrown');
}

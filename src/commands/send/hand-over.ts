/**
 * dist/send-url.cjs is the `dial send` program for URLs: the same command, built without the
 * modules only a .http target or an unusual command line needs (scripts/build.mjs replaces
 * them with a module that throws HandOver when loaded). Those are loaded before the command
 * reads or writes anything, so when one is needed the URL program stops there and hands the
 * whole command line over to dist/send.cjs, which runs it from the start (bench/HISTORY.md).
 */

/** Thrown by a module dist/send-url.cjs does not carry, when it is loaded. */
export class HandOver extends Error {
  constructor() {
    super('this command line needs dist/send.cjs');
    this.name = 'HandOver';
  }
}

/** The wrapper bin/dial.js runs a bundle of dist/ in passes this (runBundle's runSibling). */
declare const __dialRunBundle: (name: string) => unknown;

/** Runs dist/send.cjs (in dist/send-url.cjs only: other programs never hand over). */
export function runFullSendProgram(): void {
  __dialRunBundle('send.cjs');
}

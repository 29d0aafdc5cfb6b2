/** Where parse warnings go: the CLI registers one listener (stderr); core never prints. */
import type { ParseWarning } from './types.js';

type WarningListener = (warning: ParseWarning) => void;

let listener: WarningListener | undefined;
const reported = new Set<string>();

/** Sets (or clears) the process's parse-warning listener; each file:line is reported once. */
export function onParseWarning(next: WarningListener | undefined): void {
  listener = next;
}

/** Hands warnings to the listener, once per file:line (files are parsed again on watch and reload). */
export function reportParseWarnings(warnings: readonly ParseWarning[] | undefined): void {
  if (!warnings || !listener) return;
  for (const warning of warnings) {
    const key = `${warning.file}:${warning.line}:${warning.message}`;
    if (reported.has(key)) continue;
    reported.add(key);
    listener(warning);
  }
}

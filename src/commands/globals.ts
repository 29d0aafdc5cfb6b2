/** Global flags every command can read, and the decisions that follow from them. */
import type { Command } from 'commander';

export interface GlobalOptions {
  color: boolean;
  quiet: boolean;
  verbose: boolean;
}

/** Reads the root program's flags from any (sub)command. */
export function globalOptions(command: Command): GlobalOptions {
  let root = command;
  while (root.parent) root = root.parent;
  const opts = root.opts<{ color?: boolean; quiet?: boolean; verbose?: boolean }>();
  return { color: opts.color !== false, quiet: Boolean(opts.quiet), verbose: Boolean(opts.verbose) };
}

/** Colour on a terminal unless NO_COLOR or --no-color; FORCE_COLOR forces it (tests use it). */
export function useColor(command: Command, stream: { isTTY?: boolean } = process.stdout): boolean {
  return colorFor(globalOptions(command), stream);
}

/** useColor, from the global flags already read. */
export function colorFor(global: GlobalOptions, stream: { isTTY?: boolean } = process.stdout): boolean {
  if (!global.color) return false;
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') return false;
  if (process.env.FORCE_COLOR !== undefined && process.env.FORCE_COLOR !== '0') return true;
  return Boolean(stream.isTTY);
}

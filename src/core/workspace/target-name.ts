/**
 * Which `dial send` argument names a request of a .http file. Apart from ./send-target.ts, which
 * resolves such a request, so that a URL send can tell it has none without loading that module
 * and everything it reaches (the parser, sessions, variables, scripts).
 */
export interface SendTarget {
  path: string;
  name?: string;
  line?: number;
}

/** Recognises `x.http`, `x.rest`, `x.http#name` and `x.http:12`; null for anything else (a URL). */
export function parseSendTarget(argument: string): SendTarget | null {
  const match = /^(.+\.(?:http|rest))(?:#(.+)|:(\d+))?$/i.exec(argument);
  if (!match) return null;
  return { path: match[1], name: match[2], line: match[3] ? Number(match[3]) : undefined };
}

/**
 * `dial send FILE.http[#name|:line]`: find a request in a file and resolve it with the
 * workspace's variables. PLACEHOLDER until the workspace issue lands (owned by that work):
 * the signatures are the contract `src/commands/send.ts` codes against.
 */
import type { HttpRequest, SendOptions } from '../http/types.js';
import type { HttpFile, RequestNode } from '../httpfile/types.js';
import { DialError } from '../errors.js';

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

export interface PrepareFileRequestOptions {
  target: SendTarget;
  cwd: string;
  /** Environment name (-e); undefined = the remembered or none. */
  environment?: string;
  /** --var k=v pairs. */
  cliVariables: Record<string, string>;
  /** Engine options for requests that references must run first. */
  sendOptions: SendOptions;
  /** Asked when the file holds several requests and none is named (a TTY picker); undefined = error. */
  pick?: (requests: RequestNode[]) => Promise<RequestNode>;
  /** Asked for `# @prompt` variables; undefined = error unless --var gives them. */
  prompt?: (name: string, description?: string) => Promise<string>;
}

export interface PreparedFileRequest {
  request: HttpRequest;
  file: HttpFile;
  node: RequestNode;
  /** Send options the request's metadata sets (@timeout, @no-redirect, …), to merge over the CLI's. */
  overrides: Partial<SendOptions>;
  /** Values to mask wherever the exchange is printed or recorded. */
  secretValues: string[];
  environment?: string;
}

/** Parses the file, picks the request and resolves its variables (running referenced requests first). */
export async function prepareFileRequest(options: PrepareFileRequestOptions): Promise<PreparedFileRequest> {
  throw new DialError('E_USAGE', `sending from a .http file is not implemented yet (${options.target.path})`);
}

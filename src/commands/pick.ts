/**
 * Terminal prompts for `dial send FILE.http` (which request? what value for @prompt?).
 * PLACEHOLDER until the workspace issue lands; signatures are the contract.
 */
import type { RequestNode } from '../core/httpfile/types.js';
import { DialError } from '../core/errors.js';

/** Asks on the terminal which request to send. */
export async function pickRequest(requests: RequestNode[]): Promise<RequestNode> {
  throw new DialError('E_USAGE', `pick one of ${requests.length} requests with FILE.http#name (picker not implemented yet)`);
}

/** Asks on the terminal for a `# @prompt` variable's value. */
export async function promptValue(name: string, description?: string): Promise<string> {
  throw new DialError('E_USAGE', `no value for @prompt variable '${name}'${description ? ` (${description})` : ''}`, { hint: `pass --var ${name}=…` });
}

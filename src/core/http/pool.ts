/** Connection pools of both transports, and the one place undici's transport is loaded. */
import { closeNodeAgents } from './node-transport.js';

let undiciTransport: Promise<typeof import('./undici-transport.js')> | undefined;

/** Loads the undici transport on first use (HTTP/2 or proxy only). */
export function loadUndiciTransport(): Promise<typeof import('./undici-transport.js')> {
  return (undiciTransport ??= import('./undici-transport.js'));
}

/**
 * Destroys pooled keep-alive sockets (node:http agents and undici pools if loaded) so a CLI exits
 * promptly. `keepIdle` leaves node:http's idle sockets to the process's exit: Node unrefs a
 * socket it pools, so it holds nothing open, and destroying one reads process.stderr in node:net
 * (which builds that stream). `dial send` passes it once the exchange is complete.
 */
export function closeConnections(options: { keepIdle?: boolean } = {}): void {
  closeNodeAgents(options.keepIdle);
  void undiciTransport?.then((module) => module.closeUndiciDispatchers());
}

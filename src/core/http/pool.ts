/** Connection pools of both transports, and the one place undici's transport is loaded. */
import { closeNodeAgents } from './node-transport.js';

let undiciTransport: Promise<typeof import('./undici-transport.js')> | undefined;

/** Loads the undici transport on first use (HTTP/2 or proxy only). */
export function loadUndiciTransport(): Promise<typeof import('./undici-transport.js')> {
  return (undiciTransport ??= import('./undici-transport.js'));
}

/** Destroys pooled keep-alive sockets (node:http agents and undici pools if loaded) so a CLI exits promptly. */
export function closeConnections(): void {
  closeNodeAgents();
  void undiciTransport?.then((module) => module.closeUndiciDispatchers());
}

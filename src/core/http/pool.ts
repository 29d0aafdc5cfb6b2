/** Connection pools of both transports, and the one place undici's transport is loaded. */
import { closeWireConnections } from './wire-transport.js';

let undiciTransport: Promise<typeof import('./undici-transport.js')> | undefined;

/** Loads the undici transport on first use (HTTP/2 or proxy only). */
export function loadUndiciTransport(): Promise<typeof import('./undici-transport.js')> {
  return (undiciTransport ??= import('./undici-transport.js'));
}

/**
 * Destroys pooled keep-alive sockets (the wire transport's and undici's pools if loaded) so a CLI
 * exits promptly. `keepIdle` leaves idle HTTP/1.1 connections to the process's exit: they are
 * unref'd, so they hold nothing open, and destroying one reads process.stderr in node:net
 * (which builds that stream). `dial send` passes it once the exchange is complete.
 */
export function closeConnections(options: { keepIdle?: boolean } = {}): void {
  closeWireConnections(options.keepIdle);
  void undiciTransport?.then((module) => module.closeUndiciDispatchers());
}

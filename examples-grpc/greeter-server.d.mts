/** Types of greeter-server.mjs for the tests that start it. */
export interface GreeterServer {
  port: number;
  address: string;
  close(): Promise<void>;
  forceClose(): void;
}

export function startGreeterServer(options?: {
  host?: string;
  port?: number;
  reflection?: boolean | 'v1alpha';
  tls?: { key: string; cert: string };
}): Promise<GreeterServer>;

/**
 * An unsent request as it would go out: prepared by a session of its own (nothing is sent,
 * requests it references are not run, prompts stay as `{{name}}`), the default headers the
 * engine adds, and every secret masked.
 */
import { dirname } from 'node:path';
import type { HttpRequest, RequestPreview, SendOptions } from '../../core/http/types.js';
import type { HttpFile, RequestNode } from '../../core/httpfile/types.js';
import { previewRequest } from '../../core/http/request-head.js';
import { isWebSocketRequest } from '../../core/http/protocols.js';
import { createSession } from '../../core/session/index.js';
import { redactText } from '../../core/secrets.js';
import type { EnvStore } from '../../core/env/index.js';
import type { RequestPreviewText } from '../services.js';
import { privateValues } from './execute.js';

export interface PreviewContext {
  root: string;
  cliVariables: Record<string, string>;
  sendOptions: SendOptions;
  /** The env files as read now (read again after they change on disk). */
  envStore: () => EnvStore;
}

/** The first bytes of a body as text lines, or a note for binary bytes. */
function bodyLines(body: Uint8Array | undefined, size: number | undefined): string[] {
  if (!body || body.length === 0) return [];
  const text = Buffer.from(body).toString('utf8');
  if (/[\x00-\x08\x0e-\x1f]/.test(text)) return [`(${size ?? body.length} bytes of binary data)`];
  const lines = text.split(/\r?\n/);
  if (size !== undefined && size > body.length) lines.push(`… (${size} bytes in all)`);
  return lines;
}

/** A WebSocket request as it would go: the upgrade's URL and headers, then its script (the engine's HTTP head does not apply). */
function webSocketPreview(request: HttpRequest): RequestPreview {
  const body = request.body.kind === 'text' ? Buffer.from(request.body.text) : undefined;
  return { method: request.method, url: request.url, headers: request.headers, body, bodySize: body?.length };
}

/** Builds `preview`: the request with its variables filled in for an environment. */
export function createPreview(
  context: PreviewContext,
): (file: HttpFile, node: RequestNode, environment: string | undefined) => Promise<RequestPreviewText> {
  return async (file, node, environment) => {
    const session = createSession({
      workspaceRoot: context.root,
      environment,
      cliVariables: context.cliVariables,
      sendOptions: context.sendOptions,
      prompt: async (name) => `{{${name}}}`,
      keepReference: () => undefined,
    });
    try {
      const prepared = await session.prepare(file, node);
      const { request } = prepared;
      // gRPC: the target, metadata and message as dial sends them (grpc-js writes the HTTP/2 frames).
      const preview: RequestPreview =
        request.method === 'GRPC'
          ? { ...request, body: request.body.kind === 'text' ? Buffer.from(request.body.text) : undefined }
          : isWebSocketRequest(request)
            ? webSocketPreview(request)
            : await previewRequest(request, { ...context.sendOptions, ...prepared.overrides }, 64 * 1024);
      const secrets = [
        ...prepared.secretValues,
        ...session.secretValues(),
        ...(await privateValues(context.envStore(), dirname(file.path), environment)),
      ];
      const text = [
        `${preview.method} ${preview.url}`,
        ...preview.headers.map(([name, value]) => `${name}: ${value}`),
        ...(preview.body?.length ? ['', ...bodyLines(preview.body, preview.bodySize)] : []),
      ].join('\n');
      return { lines: redactText(text, secrets).split('\n') };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return {
        lines: [`${node.method} ${node.url}`, ...node.headers.map((h) => `${h.name}: ${h.value}`)],
        problem: message,
      };
    }
  };
}

/**
 * What the script engines and the runner share, kept apart from the engines so that loading
 * the runner (every `dial run`) loads neither QuickJS nor node:crypto.
 */
import type { ScriptEnvironment, ScriptRecorder } from './api.js';

/** What one script run may see and change. */
export interface HostState {
  env: ScriptEnvironment;
  recorder: ScriptRecorder;
}

/** What a script engine reports when a script does not end normally. */
export class EngineFailure extends Error {
  constructor(
    readonly reason: 'timeout' | 'memory' | 'syntax' | 'runtime' | 'stalled',
    readonly errorName: string,
    message: string,
    override readonly stack: string = '',
  ) {
    super(message);
    this.name = 'EngineFailure';
  }
}

/** `tryGetSubstituted()` answers, filled in before the script runs (the engines call the host synchronously). */
export interface SubstitutedRequest {
  url: string;
  headers: string[];
  body: string | null;
}

/**
 * `client.variables.file.get(name)` answers, read before the script runs: the names its code reads
 * literally, filled in; `declared` names the file's variables (one declared but not filled in is an
 * error at the call, never null).
 */
export interface ScriptFileVariables {
  values: Record<string, string>;
  declared: string[];
}

/** The data a script's `request` and `response` objects are built from, as plain JSON. */
export function scriptData(
  env: ScriptEnvironment,
  substituted?: SubstitutedRequest,
  fileVariables?: ScriptFileVariables,
): string {
  const view = env.response;
  const request = env.request;
  return JSON.stringify({
    request: {
      method: request?.method,
      url: request?.url,
      headers: request?.headers ?? [],
      body: request?.body ?? null,
      substituted: substituted ?? null,
      fileVariables: fileVariables ?? null,
    },
    response: view
      ? {
          status: view.status,
          statusText: view.statusText,
          headers: view.headers,
          mimeType: view.mimeType,
          charset: view.charset,
          duration: view.durationMs,
        }
      : null,
  });
}

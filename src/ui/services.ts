/**
 * The port between the TUI and core. Screens only see this interface; src/ui/core-services.ts
 * implements it with the real core (session, workspace, settings, history), and tests pass a fake.
 */
import type { Exchange } from '../core/http/types.js';
import type { HttpFile, RequestNode } from '../core/httpfile/types.js';

export type RequestState =
  'idle' | 'resolving' | 'sending' | 'receiving' | 'done' | 'failed' | 'cancelled' | 'timed-out';

export interface WorkspaceFileEntry {
  /** Absolute path. */
  path: string;
  /** Path relative to the workspace root, for display. */
  relativePath: string;
  file?: HttpFile;
  /** Why the file could not be parsed. */
  error?: string;
}

export interface TestOutcome {
  source: string;
  /** undefined = not evaluated. */
  passed?: boolean;
  message?: string;
}

export interface ResponseResult {
  exchange: Exchange;
  /** The decoded body as text (read from the spill file when the body was large). */
  bodyText: string;
  contentType?: string;
  /** Assertion outcomes when the runner evaluated them; undefined = not evaluated. */
  tests?: TestOutcome[];
  /** A response came but a script or assertion step errored. */
  error?: { code: string; message: string };
  /** Secret values to mask wherever this result is shown; the data itself stays real. */
  secrets?: string[];
}

export interface ExecuteOptions {
  environment?: string;
  signal: AbortSignal;
  prompt: (name: string, description?: string) => Promise<string>;
  onState: (state: RequestState) => void;
  /** Each message a streaming request (gRPC…) receives, as it arrives (its data: JSON for gRPC). */
  onMessage?: (data: string) => void;
}

/** An unsent request as it would go out: variables filled in, secrets masked. */
export interface RequestPreviewText {
  /** `METHOD URL`, the headers, a blank line and the body, one string per line. */
  lines: string[];
  /** Why it cannot be resolved yet (an unset variable, a prompt), shown instead of failing. */
  problem?: string;
}

export interface HistoryItem {
  time: string;
  /** Identifies the request across runs (file + name or index). */
  requestKey: string;
  label: string;
  /** `METHOD URL` as sent (the label is this with the request's id in front). */
  requestLine?: string;
  status?: number;
  durationMs?: number;
  body: string;
}

export interface WorkbenchServices {
  root: string;
  loadWorkspace(): Promise<WorkspaceFileEntry[]>;
  environments(): Promise<string[]>;
  /** Sends a request through the same core as `dial send`. */
  execute(file: HttpFile, node: RequestNode, options: ExecuteOptions): Promise<ResponseResult>;
  /** Replaces one request block's text in its file (atomic write) and returns the re-parsed file. */
  saveRequest(file: HttpFile, index: number, blockText: string): Promise<HttpFile>;
  /** Appends a request block at the end of a file; returns the re-parsed file. */
  appendRequest(file: HttpFile, blockText: string): Promise<HttpFile>;
  /**
   * Adds a request block at the end of `file`, or, with no file, creates `requests.http` in the
   * opened folder holding it (never over an existing file). Returns the parsed file.
   */
  createRequest(file: HttpFile | undefined, blockText: string): Promise<HttpFile>;
  /** Imports a curl command, or a Postman collection or OpenAPI file (a path), into the opened folder; returns the `.http` files written. */
  importRequests(text: string): Promise<string[]>;
  /** The request as it would be sent now (nothing is sent, referenced requests are not run). */
  preview(file: HttpFile, node: RequestNode, environment: string | undefined): Promise<RequestPreviewText>;
  /** Removes a request block; returns the re-parsed file. */
  deleteRequest(file: HttpFile, index: number): Promise<HttpFile>;
  history(): Promise<HistoryItem[]>;
  /** Calls `onChange` when a `.http` file or an env file changes on disk (an editor, git pull); returns the stop function. */
  watch?(onChange: (kind: 'http' | 'env') => void): () => void;
  rememberEnvironment(name: string | undefined): Promise<void>;
  /** The request as a curl command. */
  curl(result: ResponseResult): string;
  /** Saves a response body's bytes to a file (atomic). */
  saveBody(result: ResponseResult, path: string): Promise<void>;
  /** Opens text in an external program (pager or editor) with the TUI suspended; returns the edited text. */
  external(kind: 'pager' | 'editor', text: string, suffix: string): Promise<string>;
  /** A key identifying a request for history (file + name or index). */
  requestKey(file: HttpFile, node: RequestNode): string;
  /** The request last sent in this workspace (a requestKey), to select on start. */
  lastRequest?: string;
  /** Remembers the request last sent in this workspace. */
  rememberRequest(key: string): Promise<void>;
}

/**
 * The runner's typed events and results (docs/architecture.md). Reporters and the TUI consume the
 * same events; results keep only what reporters need (bodies only for failures, truncated).
 */
import type { AssertionResult } from '../assert/evaluate.js';

export type RequestStatus = 'passed' | 'failed' | 'errored' | 'skipped';

/** Identifies a request in events and reports. */
export interface RequestInfo {
  /** Position in its file, 0-based. */
  index: number;
  /** The request's name (`# @name`, `###` title), else `METHOD url`. */
  name: string;
  /** Line of the request line in the .http file. */
  line: number;
  method: string;
  /** The URL template as written (resolved URLs may hold secrets). */
  url: string;
}

/** The exchange of a failed request, for `--output-failed` and reports (masked and truncated). */
export interface FailedExchange {
  request: { method: string; url: string; headers: Array<[string, string]>; body?: string };
  response?: { status: number; statusText: string; headers: Array<[string, string]>; body?: string };
}

export interface RequestError {
  code: string;
  message: string;
  /** file:line the error points at (a script line, a variable's request). */
  file?: string;
  line?: number;
  hint?: string;
}

export interface RequestResult extends RequestInfo {
  status: RequestStatus;
  attempts: number;
  durationMs: number;
  /** HTTP status of the last attempt, when a response came. */
  httpStatus?: number;
  assertions: AssertionResult[];
  error?: RequestError;
  skipReason?: string;
  logs?: string[];
  exchange?: FailedExchange;
}

export interface Totals {
  files: number;
  requests: number;
  passed: number;
  failed: number;
  errored: number;
  skipped: number;
}

export interface FileInfo {
  /** Absolute path. */
  path: string;
  /** Path relative to the run's working folder, with forward slashes (reports use it). */
  relativePath: string;
  requests: number;
}

export interface FileResult {
  relativePath: string;
  durationMs: number;
  totals: Totals;
}

export type RunEvent =
  | {
      type: 'run:start';
      startedAt: string;
      files: FileInfo[];
      requests: number;
      shard?: { index: number; total: number };
    }
  | { type: 'file:start'; file: FileInfo }
  | { type: 'request:start'; file: string; request: RequestInfo; attempt: number }
  | { type: 'response'; file: string; request: RequestInfo; attempt: number; httpStatus: number; durationMs: number }
  | { type: 'assertion'; file: string; request: RequestInfo; attempt: number; result: AssertionResult }
  | { type: 'request:retry'; file: string; request: RequestInfo; attempt: number; delayMs: number; reason: string }
  | { type: 'request:end'; file: string; result: RequestResult }
  | { type: 'file:end'; file: string; result: FileResult }
  | { type: 'run:end'; totals: Totals; durationMs: number; bailed: boolean; interrupted: boolean };

export type RunEventListener = (event: RunEvent) => void;

/** An empty tally. */
export function emptyTotals(): Totals {
  return { files: 0, requests: 0, passed: 0, failed: 0, errored: 0, skipped: 0 };
}

/** Adds one request's status to a tally. */
export function tally(totals: Totals, status: RequestStatus): void {
  totals.requests++;
  totals[status]++;
}

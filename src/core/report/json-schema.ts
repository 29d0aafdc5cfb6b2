/**
 * The JSON report (`--reporter json`), version 1: a stable, documented schema that
 * `dial report merge` validates. Additions are optional fields; removals bump `version`.
 *
 * {
 *   tool: "dial", version: 1, startedAt: ISO time, durationMs,
 *   shard?: { index, total },            // present when the run used --shard
 *   merged?: number,                     // how many reports `dial report merge` combined
 *   totals: { files, requests, passed, failed, errored, skipped },
 *   files: [{ path (relative, forward slashes), durationMs, totals, requests: [{
 *     index, name, line, method, url (template as written), status: passed|failed|errored|skipped,
 *     attempts, durationMs, httpStatus?, skipReason?, logs?: string[],
 *     assertions: [{ kind: assertion|test, source, line?, passed, expected?, actual?, message?, diff?: string[] }],
 *     error?: { code, message, file?, line?, hint? },
 *     exchange?: { request: { method, url, headers: [[name, value]], body? }, response?: { status, statusText, headers, body? } }
 *   }] }]
 * }
 */
import * as z from 'zod/mini';

const totals = z.object({
  files: z.number(),
  requests: z.number(),
  passed: z.number(),
  failed: z.number(),
  errored: z.number(),
  skipped: z.number(),
});

const headerList = z.array(z.tuple([z.string(), z.string()]));

const assertion = z.object({
  kind: z.enum(['assertion', 'test']),
  source: z.string(),
  line: z.optional(z.number()),
  passed: z.boolean(),
  expected: z.optional(z.string()),
  actual: z.optional(z.string()),
  message: z.optional(z.string()),
  diff: z.optional(z.array(z.string())),
});

const request = z.object({
  index: z.number(),
  name: z.string(),
  line: z.number(),
  method: z.string(),
  url: z.string(),
  status: z.enum(['passed', 'failed', 'errored', 'skipped']),
  attempts: z.number(),
  durationMs: z.number(),
  httpStatus: z.optional(z.number()),
  skipReason: z.optional(z.string()),
  logs: z.optional(z.array(z.string())),
  assertions: z.array(assertion),
  error: z.optional(
    z.object({
      code: z.string(),
      message: z.string(),
      file: z.optional(z.string()),
      line: z.optional(z.number()),
      hint: z.optional(z.string()),
    }),
  ),
  exchange: z.optional(
    z.object({
      request: z.object({ method: z.string(), url: z.string(), headers: headerList, body: z.optional(z.string()) }),
      response: z.optional(
        z.object({ status: z.number(), statusText: z.string(), headers: headerList, body: z.optional(z.string()) }),
      ),
    }),
  ),
});

const file = z.object({
  path: z.string(),
  durationMs: z.number(),
  totals,
  requests: z.array(request),
});

/** The zod schema of a JSON report (version 1). */
export const runReportSchema = z.object({
  tool: z.literal('dial'),
  version: z.literal(1),
  startedAt: z.string(),
  durationMs: z.number(),
  shard: z.optional(z.object({ index: z.number(), total: z.number() })),
  merged: z.optional(z.number()),
  totals,
  files: z.array(file),
});

export type RunReport = z.infer<typeof runReportSchema>;
export type FileReport = z.infer<typeof file>;
export type RequestReport = z.infer<typeof request>;

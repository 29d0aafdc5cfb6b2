/**
 * The settings schema (zod/mini). Imported lazily: only when a settings file exists or a
 * value is being set, so `dial send` without a settings file never loads zod.
 */
import * as z from 'zod/mini';
import type { SettingKey } from './types.js';
import { keymapProblem } from './keymap.js';

const durationText = /^\s*\d+(?:\.\d+)?\s*(?:ms|s|m|h)?\s*$/;

const duration = z.union(
  [
    z.number().check(z.nonnegative({ error: 'expected 0 or more seconds' })),
    z.string().check(
      z.refine((value) => durationText.test(value), {
        error: 'expected a duration such as 500ms, 30s or 2m (a bare number means seconds)',
      }),
    ),
  ],
  { error: 'expected a duration such as 500ms, 30s or 2m (a bare number means seconds)' },
);
const count = (what: string) =>
  z.int({ error: `expected a whole number of ${what}` }).check(z.nonnegative({ error: `expected 0 or more ${what}` }));
const flag = z.boolean({ error: 'expected true or false' });
const text = z.string({ error: 'expected text' }).check(z.minLength(1, { error: 'expected non-empty text' }));
const proxy = z.string({ error: 'expected a proxy URL' }).check(
  z.refine(
    (value) => {
      try {
        return ['http:', 'https:', 'socks:', 'socks5:'].includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    { error: 'expected a proxy URL such as http://proxy.local:3128' },
  ),
);
const size = z.union(
  [
    z.int({ error: 'expected a number of bytes' }).check(z.positive({ error: 'expected more than 0 bytes' })),
    z.string().check(
      z.refine((value) => /^\s*\d+(?:\.\d+)?\s*(?:b|k|kb|kib|m|mb|mib|g|gb|gib)?\s*$/i.test(value), {
        error: 'expected a size such as 1GiB, 512MiB or a number of bytes',
      }),
    ),
  ],
  { error: 'expected a size such as 1GiB, 512MiB or a number of bytes' },
);
const byWorkspace = z.record(z.string(), z.string({ error: 'expected text' }), {
  error: 'expected an object of workspace folder -> name',
});

/** One schema per key, so `config set` validates just the key it changes. */
export const keySchemas: Record<SettingKey, z.ZodMiniType> = {
  timeout: duration,
  followRedirects: flag,
  maxRedirects: count('redirects'),
  verifyTls: flag,
  historyLimit: count('entries'),
  editor: text,
  pager: text,
  theme: z.enum(['dark', 'light', 'mono'], {
    error: (issue) => `unknown theme '${String(issue.input)}' (known: dark, light, mono)`,
  }),
  // Checked by keymapProblem (checkValue): the same rules as the TUI's keymap resolver.
  keymap: z.custom<Record<string, string | string[]>>((value) => keymapProblem(value) === undefined),
  proxy,
  maxBodySize: size,
  defaultEnvironment: byWorkspace,
  lastRequest: byWorkspace,
};

/** The first problem with a value for a key, or undefined when it is valid. */
export function checkValue(key: SettingKey, value: unknown): { path: PropertyKey[]; message: string } | undefined {
  if (key === 'keymap') return keymapProblem(value);
  const result = keySchemas[key].safeParse(value);
  if (result.success) return undefined;
  const issue = result.error.issues[0];
  return { path: issue.path, message: issue.message };
}

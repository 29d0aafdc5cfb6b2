/**
 * A settings value that is surely valid, told without zod: `loadSettings` loads the schema
 * (./schema.ts, zod) only for a value this does not vouch for, and the schema then words the
 * error. zod's loading and building its schemas cost ~24 M instructions, a sixth of a
 * `dial send`, for anyone with a config.json (`dial send -e` writes one): bench/HISTORY.md.
 * tests/core/settings/plain-values.property.test.ts holds that every value vouched for here
 * passes the schema.
 */
import { keymapProblem } from './keymap.js';
import type { SettingKey } from './types.js';

const DURATION = /^\s*\d+(?:\.\d+)?\s*(?:ms|s|m|h)?\s*$/;
const SIZE = /^\s*\d+(?:\.\d+)?\s*(?:b|k|kb|kib|m|mb|mib|g|gb|gib)?\s*$/i;
const PROXY_PROTOCOLS = ['http:', 'https:', 'socks:', 'socks5:'];

const wholeNumber = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** An object of text values read from JSON (workspace folder -> name). */
function textRecord(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value).every((entry) => typeof entry === 'string');
}

function proxyUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    return PROXY_PROTOCOLS.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** True when `value` is valid for `key` for sure; false means: ask the schema. */
export function plainlyValidSetting(key: SettingKey, value: unknown): boolean {
  switch (key) {
    case 'timeout':
      return (
        (typeof value === 'number' && Number.isFinite(value) && value >= 0) ||
        (typeof value === 'string' && DURATION.test(value))
      );
    case 'followRedirects':
    case 'verifyTls':
      return typeof value === 'boolean';
    case 'maxRedirects':
    case 'historyLimit':
      return wholeNumber(value);
    case 'editor':
    case 'pager':
      return typeof value === 'string' && value.length > 0;
    case 'theme':
      return value === 'dark' || value === 'light' || value === 'mono';
    case 'keymap':
      return keymapProblem(value) === undefined;
    case 'proxy':
      return proxyUrl(value);
    case 'maxBodySize':
      return (wholeNumber(value) && value > 0) || (typeof value === 'string' && SIZE.test(value));
    case 'defaultEnvironment':
    case 'lastRequest':
      return textRecord(value);
    default:
      return false;
  }
}

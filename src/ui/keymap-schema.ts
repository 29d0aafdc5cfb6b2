/** Keymap override values, validated with zod/mini (static import so the bundle tree-shakes it). */
import * as z from 'zod/mini';

const keyPattern = /^(?:(?:ctrl|shift|meta)\+)*(?:[\x21-\x7e]|enter|esc|tab|space|backspace|delete|up|down|left|right|pageup|pagedown|home|end)$/;

/** One key name or a list of them, e.g. "ctrl+p" or ["j", "down"]. */
export const keysSchema = z.union([z.string().check(z.regex(keyPattern)), z.array(z.string().check(z.regex(keyPattern)))]);

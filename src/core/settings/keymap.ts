/**
 * What a `keymap` setting may hold, checked in one place for `dial config set keymap …`, for
 * the settings file and for the TUI's keymap resolver (src/ui/keymap.ts), so a value is refused
 * where it is typed and never first at `dial open`. Plain checks, no zod: the TUI resolves the
 * keymap on every start.
 */

/** Every TUI action a key can be bound to (src/ui/keymap.ts describes each; tsc keeps the two lists equal). */
export const KEYMAP_ACTIONS = [
  'quit',
  'palette',
  'environments',
  'history',
  'help',
  'focusNext',
  'focusPrev',
  'back',
  'send',
  'cancel',
  'reload',
  'up',
  'down',
  'pageUp',
  'pageDown',
  'top',
  'bottom',
  'filterTree',
  'nextTab',
  'prevTab',
  'toggleFold',
  'foldAll',
  'unfoldAll',
  'scrollLeft',
  'scrollRight',
  'jsonPath',
  'search',
  'searchNext',
  'searchPrev',
  'copyBody',
  'copyCurl',
  'saveBody',
  'pager',
  'editMethod',
  'editUrl',
  'editQuery',
  'editHeaders',
  'editBody',
  'editBodyExternal',
  'editRequest',
  'newRequest',
  'duplicate',
  'rename',
  'delete',
  'importRequests',
  'toggleSecrets',
  'composeMessage',
] as const;

export type KeymapAction = (typeof KEYMAP_ACTIONS)[number];

/** Key sets applied before the overrides: `{"preset": "vim"}`. */
export const KEYMAP_PRESETS = ['default', 'vim'] as const;

/** A key name: optional ctrl+/shift+/meta+ and one printable character or a named key. */
export const KEY_NAME =
  /^(?:(?:ctrl|shift|meta)\+)*(?:[\x21-\x7e]|enter|esc|tab|space|backspace|delete|up|down|left|right|pageup|pagedown|home|end)$/;

/** The form `config set keymap` takes, for hints. */
export const KEYMAP_EXAMPLE = `{"preset": "vim", "quit": ["q", "ctrl+q"]}`;

const actions = new Set<string>(KEYMAP_ACTIONS);

export interface KeymapProblem {
  /** Where in the value: `[action]` or `[action, index]`. */
  path: PropertyKey[];
  message: string;
}

/**
 * The first problem with keymap overrides, or undefined when they are valid: an object of
 * action -> list of key names (`singleKeys`: a lone key name is accepted too), plus an optional
 * `preset` ("vim", "default", or the same in a one-item list).
 */
export function keymapProblem(value: unknown, options: { singleKeys?: boolean } = {}): KeymapProblem | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { path: [], message: `expected an object of action -> list of keys, e.g. ${KEYMAP_EXAMPLE}` };
  }
  for (const [action, keys] of Object.entries(value as Record<string, unknown>)) {
    if (action === 'preset') {
      const preset = Array.isArray(keys) && keys.length === 1 ? keys[0] : keys;
      if (!(KEYMAP_PRESETS as readonly unknown[]).includes(preset)) {
        return {
          path: [action],
          message: `unknown keymap preset '${String(preset)}' (known: ${KEYMAP_PRESETS.join(', ')})`,
        };
      }
      continue;
    }
    if (!actions.has(action)) {
      return { path: [action], message: `unknown keymap action '${action}' (known: ${KEYMAP_ACTIONS.join(', ')})` };
    }
    const list = typeof keys === 'string' && options.singleKeys ? [keys] : keys;
    if (!Array.isArray(list)) {
      return { path: [action], message: `expected a list of keys, e.g. ["q", "ctrl+c"] (got ${JSON.stringify(keys)})` };
    }
    for (const [index, key] of list.entries()) {
      if (typeof key !== 'string' || !KEY_NAME.test(key)) {
        return {
          path: options.singleKeys && typeof keys === 'string' ? [action] : [action, index],
          message: `${JSON.stringify(key)} is not a key name; keys are names like "q", "ctrl+p", "shift+tab", "enter", "esc", "pagedown"`,
        };
      }
    }
  }
  return undefined;
}

/**
 * The keymap is data: every action has a list of keys. User overrides (settings `keymap`)
 * replace an action's keys; the `vim` preset is another layer of overrides. Key names are
 * normalised strings such as `ctrl+p`, `shift+tab`, `enter`, `esc`, `up`, `q`, `N`, `/`.
 */
import type { Key } from 'ink';
import { keymapProblem, type KeymapAction } from '../core/settings/keymap.js';

export const actionDescriptions = {
  quit: 'Quit dial',
  palette: 'Command palette',
  environments: 'Pick the environment',
  history: 'History of this workspace',
  help: 'Show this help',
  focusNext: 'Focus the next pane',
  focusPrev: 'Focus the previous pane',
  back: 'Close the top screen / cancel a request',
  send: 'Send the selected request',
  cancel: 'Cancel the request in flight',
  reload: 'Reload the workspace files from disk',
  up: 'Move up',
  down: 'Move down',
  pageUp: 'Page up',
  pageDown: 'Page down',
  top: 'Go to the top',
  bottom: 'Go to the bottom',
  filterTree: 'Filter requests (tree)',
  nextTab: 'Next response tab',
  prevTab: 'Previous response tab',
  toggleFold: 'Fold / unfold the JSON node',
  foldAll: 'Fold all nodes',
  unfoldAll: 'Unfold all nodes',
  scrollLeft: 'Scroll the body left',
  scrollRight: 'Scroll the body right (long lines)',
  jsonPath: 'Filter the body with a JSONPath expression',
  search: 'Search the body',
  searchNext: 'Next match',
  searchPrev: 'Previous match',
  copyBody: 'Copy the body (OSC 52)',
  copyCurl: 'Copy the request as curl (OSC 52)',
  saveBody: 'Save the body to a file',
  pager: 'Open the body in $PAGER',
  editMethod: 'Edit the method',
  editUrl: 'Edit the URL',
  editQuery: 'Edit the query parameters',
  editHeaders: 'Edit the headers',
  editBody: 'Edit the body here (JSON is checked)',
  editBodyExternal: 'Edit the body in $EDITOR',
  editRequest: 'Edit the whole request in $EDITOR',
  newRequest: 'New request (METHOD URL)',
  duplicate: 'Duplicate the request',
  rename: 'Rename the request (its ### title)',
  delete: 'Delete the request',
  importRequests: 'Import requests (curl, Postman, OpenAPI)',
  toggleSecrets: 'Reveal / hide secret values (masked ••••)',
  composeMessage: 'Write a message to the open WebSocket',
} as const;

export type ActionName = keyof typeof actionDescriptions;
// The settings check (core) and this table list the same actions; tsc fails here when they drift.
const sameActions: [Exclude<ActionName, KeymapAction>, Exclude<KeymapAction, ActionName>] extends [never, never]
  ? true
  : never = true;
void sameActions;
export type Keymap = Record<ActionName, string[]>;

export const actionNames = Object.keys(actionDescriptions) as ActionName[];

/** The default keys. */
export const defaultKeymap: Keymap = {
  quit: ['q'],
  palette: ['ctrl+p'],
  environments: ['ctrl+e'],
  history: ['ctrl+h'],
  help: ['?'],
  focusNext: ['tab'],
  focusPrev: ['shift+tab'],
  back: ['esc'],
  send: ['enter', 'ctrl+s'],
  cancel: ['ctrl+c'],
  reload: ['ctrl+l'],
  up: ['up'],
  down: ['down'],
  pageUp: ['pageup'],
  pageDown: ['pagedown', 'space'],
  top: ['home'],
  bottom: ['end'],
  filterTree: ['/'],
  nextTab: [']', 'right'],
  prevTab: ['[', 'left'],
  toggleFold: ['z'],
  foldAll: ['Z'],
  unfoldAll: ['U'],
  scrollLeft: ['<'],
  scrollRight: ['>'],
  jsonPath: ['$'],
  search: ['/'],
  searchNext: ['n'],
  searchPrev: ['N'],
  copyBody: ['y'],
  copyCurl: ['c'],
  saveBody: ['s'],
  pager: ['p'],
  editMethod: ['m'],
  editUrl: ['u'],
  editQuery: ['Q'],
  editHeaders: ['h'],
  editBody: ['b'],
  editBodyExternal: ['B'],
  editRequest: ['e'],
  newRequest: ['ctrl+n', 'a'],
  duplicate: ['D'],
  rename: ['r'],
  delete: ['x'],
  importRequests: ['i'],
  toggleSecrets: ['ctrl+r'],
  composeMessage: ['w'],
};

/** The vim preset: hjkl-style movement on top of the defaults. */
export const vimPreset: Partial<Keymap> = {
  up: ['up', 'k'],
  down: ['down', 'j'],
  pageUp: ['pageup', 'ctrl+b', 'ctrl+u'],
  pageDown: ['pagedown', 'ctrl+f', 'ctrl+d'],
  top: ['home', 'g'],
  bottom: ['end', 'G'],
  nextTab: [']', 'l', 'right'],
  prevTab: ['[', 'left'],
  editHeaders: ['H'],
};

/** Keymap overrides as settings hold them: `{ "preset"?: "vim", [action]: string | string[] }`. */
export type KeymapOverrides = Record<string, unknown>;

export class KeymapError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeymapError';
  }
}

/**
 * Validates overrides (unknown action -> error naming it) and returns the effective keymap.
 * Keys may be a string or a list; `preset: "vim"` applies the vim preset first.
 */
export async function resolveKeymap(overrides: KeymapOverrides | undefined): Promise<Keymap> {
  const keymap: Keymap = { ...defaultKeymap };
  if (!overrides) return keymap;
  // The same check as `dial config set keymap` (core), so what it accepts always opens.
  const problem = keymapProblem(overrides, { singleKeys: true });
  if (problem) {
    const [action] = problem.path;
    throw new KeymapError(
      action === undefined || action === 'preset' || problem.message.startsWith('unknown')
        ? problem.message
        : `keymap action '${String(action)}': ${problem.message}`,
    );
  }
  // Settings store every keymap value as a list, so the preset may come as ["vim"].
  const preset = Array.isArray(overrides.preset) ? overrides.preset[0] : overrides.preset;
  if (preset === 'vim') Object.assign(keymap, vimPreset);
  for (const [action, value] of Object.entries(overrides)) {
    if (action === 'preset') continue;
    keymap[action as ActionName] = typeof value === 'string' ? [value] : [...(value as string[])];
  }
  return keymap;
}

/** Turns Ink's (input, key) into one normalised key name, or undefined for pasted text. */
export function keyName(input: string, key: Key): string | undefined {
  const mods = (name: string, shift = false): string =>
    `${key.ctrl ? 'ctrl+' : ''}${key.meta && !key.escape ? 'meta+' : ''}${shift ? 'shift+' : ''}${name}`;
  if (key.escape) return 'esc';
  if (key.return) return mods('enter');
  if (key.tab) return key.shift ? 'shift+tab' : mods('tab');
  if (key.upArrow) return mods('up');
  if (key.downArrow) return mods('down');
  if (key.leftArrow) return mods('left');
  if (key.rightArrow) return mods('right');
  if (key.pageUp) return mods('pageup');
  if (key.pageDown) return mods('pagedown');
  if (key.home) return mods('home');
  if (key.end) return mods('end');
  // Terminals send 0x08 for ctrl+h and 0x7f for the Backspace key; Ink names them backspace and delete.
  if (key.backspace) return 'ctrl+h';
  if (key.delete) return 'backspace';
  if (input === ' ') return mods('space');
  if (input.length !== 1) return undefined;
  if (key.ctrl) return `ctrl+${input.toLowerCase()}`;
  if (key.meta) return `meta+${input}`;
  return input;
}

/** The actions bound to a key name, in keymap order. */
export function actionsFor(keymap: Keymap, name: string): ActionName[] {
  const found: ActionName[] = [];
  for (const action of actionNames) if (keymap[action].includes(name)) found.push(action);
  return found;
}

/** A short label for the first key of an action, for hints (`ctrl+p`, `enter`). */
export function keyLabel(keymap: Keymap, action: ActionName): string {
  return keymap[action][0] ?? '';
}

/**
 * Ink delivers a burst of plain bytes (fast typing, tmux send-keys, a paste) as ONE input.
 * Splits such a burst into single keys so each goes through the dispatcher; control bytes
 * become their key names (0x10 -> ctrl+p, 0x0d -> enter).
 */
export function splitBurst(input: string): Array<{ name: string | undefined; input: string }> {
  const keys: Array<{ name: string | undefined; input: string }> = [];
  for (const ch of input) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\r' || ch === '\n') keys.push({ name: 'enter', input: '' });
    else if (ch === '\t') keys.push({ name: 'tab', input: '' });
    else if (ch === '\x7f') keys.push({ name: 'backspace', input: '' });
    else if (ch === '\x08') keys.push({ name: 'ctrl+h', input: '' });
    else if (ch === ' ') keys.push({ name: 'space', input: ' ' });
    else if (code >= 1 && code <= 26) keys.push({ name: `ctrl+${String.fromCharCode(code + 96)}`, input: '' });
    else if (code < 0x20) continue;
    else keys.push({ name: ch, input: ch });
  }
  return keys;
}

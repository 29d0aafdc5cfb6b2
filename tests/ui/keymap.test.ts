import { describe, expect, it } from 'vitest';
import type { Key } from 'ink';
import { actionsFor, defaultKeymap, keyName, resolveKeymap, splitBurst } from '../../src/ui/keymap.js';

const key = (over: Partial<Key> = {}): Key => ({
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
  ...over,
});

describe('keymap', () => {
  it('names keys', () => {
    expect(keyName('p', key({ ctrl: true }))).toBe('ctrl+p');
    expect(keyName('', key({ tab: true, shift: true }))).toBe('shift+tab');
    expect(keyName('', key({ escape: true, meta: true }))).toBe('esc');
    expect(keyName('N', key({ shift: true }))).toBe('N');
    expect(keyName('', key({ delete: true }))).toBe('backspace');
    expect(keyName('abc', key())).toBeUndefined();
  });

  it('splits bursts of typed bytes into keys', () => {
    expect(splitBurst('\x10fo')).toEqual([
      { name: 'ctrl+p', input: '' },
      { name: 'f', input: 'f' },
      { name: 'o', input: 'o' },
    ]);
    expect(splitBurst('a\r')).toEqual([
      { name: 'a', input: 'a' },
      { name: 'enter', input: '' },
    ]);
  });

  it('applies overrides and the vim preset', async () => {
    const keymap = await resolveKeymap({ preset: 'vim', quit: 'ctrl+q', send: ['enter', 'ctrl+r'] });
    expect(keymap.quit).toEqual(['ctrl+q']);
    expect(keymap.send).toEqual(['enter', 'ctrl+r']);
    expect(keymap.down).toContain('j');
    expect(actionsFor(keymap, 'j')).toContain('down');
    expect(actionsFor(defaultKeymap, 'j')).toEqual([]);
  });

  it('names an unknown action or a bad key in the error', async () => {
    await expect(resolveKeymap({ launchRockets: 'x' })).rejects.toThrow(/unknown keymap action 'launchRockets'/);
    await expect(resolveKeymap({ quit: 'hyper+space bar' })).rejects.toThrow(/keymap action 'quit'/);
    await expect(resolveKeymap({ preset: 'emacs' })).rejects.toThrow(/unknown keymap preset 'emacs'/);
  });
});

describe('keymap and settings agree', () => {
  it('every TUI action can be bound in settings, and what settings accept the resolver opens', async () => {
    const { KEYMAP_ACTIONS, keymapProblem } = await import('../../src/core/settings/keymap.js');
    const { actionNames } = await import('../../src/ui/keymap.js');
    expect([...KEYMAP_ACTIONS].sort()).toEqual([...actionNames].sort());
    const stored = { preset: ['vim'], quit: ['q', 'ctrl+q'], reload: ['ctrl+l', 'R'] };
    expect(keymapProblem(stored)).toBeUndefined();
    const keymap = await resolveKeymap(stored);
    expect(keymap.quit).toEqual(['q', 'ctrl+q']);
    expect(keymap.reload).toEqual(['ctrl+l', 'R']);
    expect(keymap.down).toContain('j');
  });
});

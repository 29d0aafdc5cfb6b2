/** The multi-line body editor as a pure reducer: lines, a cursor, and the keys that move and change them. */

export interface BodyEditor {
  lines: string[];
  row: number;
  col: number;
  /** First line shown. */
  scroll: number;
}

/** An editor over `text`, the cursor at its start. */
export function openBodyEditor(text: string): BodyEditor {
  return { lines: text.replace(/\r\n/g, '\n').split('\n'), row: 0, col: 0, scroll: 0 };
}

/** The edited text. */
export function bodyEditorText(editor: BodyEditor): string {
  return editor.lines.join('\n');
}

function insert(editor: BodyEditor, text: string): BodyEditor {
  const parts = text.replace(/\r\n?/g, '\n').split('\n');
  const line = editor.lines[editor.row];
  const before = line.slice(0, editor.col);
  const after = line.slice(editor.col);
  const inserted =
    parts.length === 1
      ? [before + parts[0] + after]
      : [before + parts[0], ...parts.slice(1, -1), parts[parts.length - 1] + after];
  const lines = [...editor.lines.slice(0, editor.row), ...inserted, ...editor.lines.slice(editor.row + 1)];
  const row = editor.row + parts.length - 1;
  const col = parts.length === 1 ? editor.col + parts[0].length : parts[parts.length - 1].length;
  return { ...editor, lines, row, col };
}

function backspace(editor: BodyEditor): BodyEditor {
  const { lines, row, col } = editor;
  if (col > 0) {
    const line = lines[row];
    return {
      ...editor,
      lines: [...lines.slice(0, row), line.slice(0, col - 1) + line.slice(col), ...lines.slice(row + 1)],
      col: col - 1,
    };
  }
  if (row === 0) return editor;
  const previous = lines[row - 1];
  return {
    ...editor,
    lines: [...lines.slice(0, row - 1), previous + lines[row], ...lines.slice(row + 1)],
    row: row - 1,
    col: previous.length,
  };
}

function move(editor: BodyEditor, name: string): BodyEditor {
  const { lines, row, col } = editor;
  switch (name) {
    case 'left':
      return col > 0
        ? { ...editor, col: col - 1 }
        : row > 0
          ? { ...editor, row: row - 1, col: lines[row - 1].length }
          : editor;
    case 'right':
      return col < lines[row].length
        ? { ...editor, col: col + 1 }
        : row < lines.length - 1
          ? { ...editor, row: row + 1, col: 0 }
          : editor;
    case 'up':
      return row > 0 ? { ...editor, row: row - 1, col: Math.min(col, lines[row - 1].length) } : editor;
    case 'down':
      return row < lines.length - 1 ? { ...editor, row: row + 1, col: Math.min(col, lines[row + 1].length) } : editor;
    case 'home':
      return { ...editor, col: 0 };
    case 'end':
      return { ...editor, col: lines[row].length };
    default:
      return editor;
  }
}

/** Keeps the cursor's line among the `height` shown. */
function scrolled(editor: BodyEditor, height: number): BodyEditor {
  const scroll = Math.min(editor.row, Math.max(editor.scroll, editor.row - height + 1));
  return scroll === editor.scroll ? editor : { ...editor, scroll };
}

/** One key in the editor: ctrl+s saves, esc cancels, the rest edits or moves. */
export function bodyEditorKey(
  editor: BodyEditor,
  name: string | undefined,
  input: string,
  height: number,
): { editor: BodyEditor; done?: 'save' | 'cancel' } {
  if (name === 'ctrl+s') return { editor, done: 'save' };
  if (name === 'esc') return { editor, done: 'cancel' };
  let next = editor;
  if (name === 'enter') next = insert(editor, '\n');
  else if (name === 'backspace' || name === 'ctrl+h') next = backspace(editor);
  else if (name === 'tab') next = insert(editor, '  ');
  else if (name === 'space') next = insert(editor, ' ');
  else if (name === 'left' || name === 'right' || name === 'up' || name === 'down' || name === 'home' || name === 'end')
    next = move(editor, name);
  else if (name === undefined || name.length === 1)
    next = insert(editor, input.replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g, '').replace(/\t/g, '  '));
  return { editor: scrolled(next, height) };
}

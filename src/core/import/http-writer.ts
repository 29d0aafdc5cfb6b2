/**
 * Turns imported requests into `.http` text in the canonical style (formatRequest), plus the
 * side files a body needs when it cannot be written inline without changing its bytes.
 */
import { formatRequest } from '../httpfile/print.js';
import type { RequestDraft } from '../httpfile/types.js';
import type { ImportedFile } from './import-result.js';

/** One part of a multipart body as imported. */
export interface DraftPart {
  name: string;
  value?: string;
  /** A file to upload, relative to the `.http` file (or absolute). */
  filePath?: string;
  filename?: string;
  contentType?: string;
}

export type DraftBody =
  | { kind: 'none' }
  /** `substitute`: the text may hold {{variables}} meant for dial (Postman, OpenAPI); false = literal (curl). */
  | { kind: 'text'; text: string; substitute: boolean }
  | { kind: 'file'; path: string; substitute?: boolean }
  | { kind: 'multipart'; parts: DraftPart[] };

/** A request an importer produced, before it becomes `.http` text. */
export interface ImportDraft {
  title?: string;
  name: string;
  /** Comment lines (without `# `) printed under the `###` line. */
  comments: string[];
  metadata: Array<{ key: string; value?: string }>;
  variables?: Array<{ name: string; value: string }>;
  method: string;
  url: string;
  httpVersion?: '2';
  headers: Array<{ name: string; value: string }>;
  body: DraftBody;
}

const DEFAULT_BOUNDARY = 'WebAppBoundary';

/** Lower-case, dash-separated, safe as a file name and a request name; `fallback` when nothing is left. */
export function slugify(text: string, fallback = 'request'): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z0-9])([A-Z][a-z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || fallback;
}

/** A name not yet in `used` (adds -2, -3, …) and records it. */
export function uniqueName(base: string, used: Set<string>): string {
  let name = base;
  for (let n = 2; used.has(name.toLowerCase()); n++) name = `${base}-${n}`;
  used.add(name.toLowerCase());
  return name;
}

/** A comment line that the parser will not read as metadata (`# @x`) or a separator. */
export function commentLine(text: string): string {
  const line = text.replace(/\s+$/, '');
  if (line === '') return '#';
  return `# ${line.replace(/^(\s*)@/, '$1\\@')}`;
}

/**
 * True when the text survives as an inline body: the parser takes the body from its first
 * to its last non-blank line, trims nothing inside, and stops at separators, handlers and
 * assertions; anything that would be read differently goes to a side file instead.
 */
export function fitsInline(text: string): boolean {
  if (text === '' || /\r/.test(text) || /^\s/.test(text) || /\s$/.test(text)) return false;
  if (/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(text)) return false;
  const lines = text.split('\n');
  if (lines.length === 1 && /^</.test(text)) return false;
  // Whole-line `#` / `//` comments inside a body are comments, not body text (docs/http-format.md).
  if (lines.some((line) => /^\s*(#|\/\/)/.test(line))) return false;
  // `<>` lines refer to a previous response (JetBrains), `>` lines start handlers and redirects.
  // `@x = y` lines may be read as file variables. A line opening with `{{` or `/*` starts a
  // script block or a comment in a file read as httpyac's (docs/http-format.md).
  return !lines.some(
    (line) =>
      /^###/.test(line) ||
      /^\s*(\{\{|\/\*)/.test(line) ||
      /^\s*\?\?/.test(line) ||
      /^\s*>/.test(line) ||
      /^\s*<>/.test(line) ||
      /^\s*@[A-Za-z_$][\w.$-]*\s*=/.test(line),
  );
}

function extensionFor(headers: ImportDraft['headers']): string {
  const type = headers.find((header) => header.name.toLowerCase() === 'content-type')?.value.toLowerCase() ?? '';
  if (/json/.test(type)) return '.json';
  if (/xml/.test(type)) return '.xml';
  if (/x-www-form-urlencoded/.test(type)) return '.txt';
  if (/graphql/.test(type)) return '.graphql';
  return '.txt';
}

/** A path as the .http file shows it: relative ones start with ./ or ../ (absolute paths, and those starting with a variable, stay). */
function relativePath(path: string): string {
  return /^(\.{1,2}[\\/]|[\\/]|[A-Za-z]:[\\/]|\{\{)/.test(path) ? path : `./${path}`;
}

function multipartText(parts: DraftPart[], boundary: string): string {
  const lines: string[] = [];
  for (const part of parts) {
    lines.push(`--${boundary}`);
    let disposition = `Content-Disposition: form-data; name="${part.name.replace(/"/g, '%22')}"`;
    const filename = part.filename ?? (part.filePath !== undefined ? part.filePath.split(/[\\/]/).pop() : undefined);
    if (filename !== undefined) disposition += `; filename="${filename.replace(/"/g, '%22')}"`;
    lines.push(disposition);
    if (part.contentType) lines.push(`Content-Type: ${part.contentType}`);
    lines.push('');
    lines.push(part.filePath !== undefined ? `< ${relativePath(part.filePath)}` : (part.value ?? ''));
  }
  lines.push(`--${boundary}--`);
  return lines.join('\n');
}

function pickBoundary(parts: DraftPart[]): string {
  let boundary = DEFAULT_BOUNDARY;
  for (let n = 2; parts.some((part) => (part.value ?? '').includes(boundary)); n++)
    boundary = `${DEFAULT_BOUNDARY}${n}`;
  return boundary;
}

export interface RenderOptions {
  /** The `.http` file's path relative to the output folder (posix), for naming side files. */
  filePath: string;
  /** Comment lines at the top of the file. */
  preamble?: string[];
  /** File-level variables printed at the top (`@name = value`). */
  fileVariables?: Array<{ name: string; value: string }>;
}

/** Renders drafts as one `.http` file, plus side files for bodies that cannot be inline. */
export function renderHttpFile(
  drafts: ImportDraft[],
  options: RenderOptions,
): { text: string; sideFiles: ImportedFile[] } {
  const sideFiles: ImportedFile[] = [];
  const dir = options.filePath.includes('/') ? options.filePath.slice(0, options.filePath.lastIndexOf('/') + 1) : '';
  const base = options.filePath.slice(dir.length).replace(/\.http$/, '');
  const blocks: string[] = [];
  const top: string[] = (options.preamble ?? []).map(commentLine);
  for (const variable of options.fileVariables ?? []) top.push(`@${variable.name} = ${variable.value}`);
  if (top.length > 0) blocks.push(top.join('\n') + '\n');

  for (const draft of drafts) {
    const headers = [...draft.headers];
    let body: RequestDraft['body'];
    switch (draft.body.kind) {
      case 'none':
        break;
      case 'text': {
        const text = draft.body.text;
        // An empty body is no body: the engine sends Content-Length: 0 for POST/PUT/PATCH.
        if (text === '') break;
        // A literal (curl) body with {{ would be read as variables: keep it in a file sent as is.
        if (fitsInline(text) && (draft.body.substitute || !text.includes('{{'))) {
          body = { kind: 'inline', text };
        } else {
          const name = `${base}.${draft.name}.body${extensionFor(headers)}`;
          sideFiles.push({ path: dir + name, content: text, description: `body of ${draft.name}` });
          body = { kind: 'file', path: `./${name}`, substitute: draft.body.substitute && text.includes('{{') };
        }
        break;
      }
      case 'file':
        body = { kind: 'file', path: relativePath(draft.body.path), substitute: draft.body.substitute ?? false };
        break;
      case 'multipart': {
        const boundary = pickBoundary(draft.body.parts);
        const index = headers.findIndex((header) => header.name.toLowerCase() === 'content-type');
        const contentType = `multipart/form-data; boundary=${boundary}`;
        if (index >= 0) headers[index] = { name: headers[index].name, value: contentType };
        else headers.push({ name: 'Content-Type', value: contentType });
        body = { kind: 'inline', text: multipartText(draft.body.parts, boundary) };
        break;
      }
    }
    const request: RequestDraft = {
      title: draft.title ?? draft.name,
      name: draft.name,
      method: draft.method.toUpperCase(),
      url: draft.url,
      httpVersion: draft.httpVersion === '2' ? 'HTTP/2' : undefined,
      variables: draft.variables,
      metadata: draft.metadata,
      headers,
      body,
    };
    let text = formatRequest(request);
    if (draft.comments.length > 0) {
      // Comments go right under the separator line, before variables and metadata.
      const newline = text.indexOf('\n');
      text = text.slice(0, newline + 1) + draft.comments.map(commentLine).join('\n') + '\n' + text.slice(newline + 1);
    }
    blocks.push(text);
  }
  return { text: blocks.join('\n'), sideFiles };
}

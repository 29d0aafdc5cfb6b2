/**
 * `dial export curl FILE.http#name`: resolves the request as `dial send` would, then shapes
 * it for a command line: a multipart body written in the file becomes -F parts (files as
 * `@path`, not inlined bytes) and file paths are shown relative to the current folder.
 */
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import type { HttpRequest, MultipartPart } from '../http/types.js';
import type { HttpFile, RequestNode } from '../httpfile/types.js';
import { multipartBoundary } from '../httpfile/multipart.js';
import { toCurl, type ToCurlOptions } from './curl.js';
import { dispositionParam, partsInBytes } from './multipart-parts.js';

interface PartSource {
  headers: Array<[string, string]>;
  /** `< path` (sent as is) in the file; undefined for inline content or `<@ path`. */
  filePath?: string;
}

// The parts as written in the .http file (JetBrains multipart syntax).
function partsInText(text: string, boundary: string): PartSource[] {
  const parts: PartSource[] = [];
  let current: (PartSource & { content: string[]; inHeaders: boolean }) | undefined;
  const close = () => {
    if (!current) return;
    const content = current.content.join('\n').trim();
    const file = /^<\s+(.+)$/.exec(content);
    parts.push({ headers: current.headers, filePath: file && !content.includes('\n') ? file[1].trim() : undefined });
  };
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (trimmed === `--${boundary}` || trimmed === `--${boundary}--`) {
      close();
      current = trimmed === `--${boundary}--` ? undefined : { headers: [], content: [], inHeaders: true };
      continue;
    }
    if (!current) continue;
    if (current.inHeaders) {
      if (trimmed === '') current.inHeaders = false;
      else if (line.includes(':')) current.headers.push([line.slice(0, line.indexOf(':')).trim(), line.slice(line.indexOf(':') + 1).trim()]);
    } else {
      current.content.push(line);
    }
  }
  close();
  return parts;
}

/** A path as the command shows it: relative to the current folder when inside it. */
function displayPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? `./${rel.split('\\').join('/')}` : path;
}

/** Reshapes a prepared request for curl: -F parts for multipart bodies written in the file, readable paths. */
export function requestForCurl(request: HttpRequest, file: HttpFile, node: RequestNode, cwd: string): HttpRequest {
  const out: HttpRequest = { ...request, headers: [...request.headers] };
  const typeIndex = out.headers.findIndex(([name]) => name.toLowerCase() === 'content-type');
  const boundary = multipartBoundary(typeIndex >= 0 ? out.headers[typeIndex][1] : undefined);
  if (boundary && node.body?.kind === 'inline' && request.body.kind === 'bytes') {
    const written = partsInText(node.body.text, boundary);
    const sent = partsInBytes(request.body.bytes, boundary);
    if (written.length === sent.length && sent.every((part) => dispositionParam(part.headers, 'name') !== undefined)) {
      const baseDir = file.path ? dirname(file.path) : cwd;
      const parts: MultipartPart[] = sent.map((part, index) => {
        const result: MultipartPart = { name: dispositionParam(part.headers, 'name')! };
        const contentType = part.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1];
        if (contentType) result.contentType = contentType;
        const filename = dispositionParam(part.headers, 'filename');
        const filePath = written[index].filePath;
        if (filePath !== undefined) {
          result.filePath = displayPath(resolve(baseDir, filePath), cwd);
          // curl names the part after the file unless told otherwise.
          if (filename !== undefined && filename !== filePath.split(/[\\/]/).pop()) result.filename = filename;
        } else {
          result.value = part.content.toString('utf8');
          if (filename !== undefined) result.filename = filename;
        }
        return result;
      });
      // curl writes its own boundary and Content-Type.
      out.headers.splice(typeIndex, 1);
      out.body = { kind: 'multipart', parts };
    }
  }
  if (out.body.kind === 'file') out.body = { kind: 'file', path: displayPath(out.body.path, cwd) };
  return out;
}

/** The curl command for a prepared request of a `.http` file. */
export function exportCurl(request: HttpRequest, file: HttpFile, node: RequestNode, cwd: string, options: ToCurlOptions = {}): string {
  return toCurl(requestForCurl(request, file, node, cwd), options);
}

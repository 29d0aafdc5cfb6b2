/**
 * `--download`: the file name a response asks for (Content-Disposition, else the URL),
 * sanitised so it can only name a file directly inside the chosen folder.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const extensionFor: Record<string, string> = {
  'application/json': '.json',
  'text/html': '.html',
  'text/plain': '.txt',
  'text/csv': '.csv',
  'text/xml': '.xml',
  'application/xml': '.xml',
  'application/pdf': '.pdf',
  'application/zip': '.zip',
  'application/gzip': '.gz',
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
  'image/svg+xml': '.svg',
  'image/webp': '.webp',
  'text/javascript': '.js',
  'application/javascript': '.js',
  'text/css': '.css',
};

/** The filename parameter of a Content-Disposition header (RFC 6266; `filename*` wins). */
export function contentDispositionFilename(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended) {
    try {
      const charset = extended[1].trim().toLowerCase();
      const raw = extended[2].trim().replace(/^"|"$/g, '');
      return charset === 'iso-8859-1' ? unescape(raw) : decodeURIComponent(raw);
    } catch {
      // fall back to the plain parameter
    }
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header);
  if (quoted) return quoted[1].replace(/\\(.)/g, '$1');
  const bare = /filename\s*=\s*([^;\s]+)/i.exec(header);
  return bare?.[1];
}

/**
 * Makes a name safe to create in a folder: no path separators, no `..`, no control or
 * reserved characters, no leading dots (hidden files), at most 200 characters.
 */
export function sanitizeFileName(name: string): string | undefined {
  // Only the last path component counts, whichever separator the server used.
  const last = name.split(/[\\/]/).pop() ?? '';
  const cleaned = last
    .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '_')
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '')
    .slice(0, 200);
  if (cleaned === '' || /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i.test(cleaned)) return undefined;
  return cleaned;
}

/** The name a download gets: Content-Disposition, else the last URL path segment, else `index`; with an extension from the media type when it has none. */
export function downloadFileName(
  url: string,
  contentDisposition: string | undefined,
  contentType: string | undefined,
): string {
  const fromHeader = sanitizeFileName(contentDisposition ? (contentDispositionFilename(contentDisposition) ?? '') : '');
  if (fromHeader) return fromHeader;
  let segment = '';
  try {
    const path = new URL(url).pathname;
    segment = decodeURIComponent(path.split('/').filter(Boolean).pop() ?? '');
  } catch {
    segment = '';
  }
  let name = sanitizeFileName(segment) ?? 'index';
  if (!name.includes('.')) {
    const ext = extensionFor[contentType?.split(';')[0].trim().toLowerCase() ?? ''];
    if (ext) name += ext;
  }
  return name;
}

/** A path in `folder` that does not exist yet: `name`, then `name-1`, `name-2`, … */
export function uniquePath(folder: string, name: string, exists: (path: string) => boolean = existsSync): string {
  if (!exists(join(folder, name))) return join(folder, name);
  for (let n = 1; ; n++) {
    const candidate = join(folder, `${name}-${n}`);
    if (!exists(candidate)) return candidate;
  }
}

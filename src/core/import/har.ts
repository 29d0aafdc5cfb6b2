/**
 * `dial import har`: a HAR 1.2 log (browser devtools, Insomnia, Charles, proxies) to one `.http`
 * file, one request per entry. Secrets (Authorization, Cookie, token-like headers and query
 * parameters) become `{{variables}}` whose values go to the private env file; static assets
 * (images, style sheets, fonts, scripts, media) are skipped unless asked for.
 */
import { basename } from 'node:path';
import * as z from 'zod/mini';
import { EnvFiles, SHARED } from './env-writer.js';
import { renderHttpFile, slugify, uniqueName, type DraftBody, type ImportDraft } from './http-writer.js';
import { nameFromUrl } from './curl-import.js';
import { parseJsonLocated } from './collection-tree.js';
import type { ImportResult } from './output.js';
import { readSource, validateSource } from './source-file.js';

const NameValue = z.looseObject({
  name: z.string(),
  value: z.optional(z.nullable(z.string())),
  fileName: z.optional(z.string()),
  contentType: z.optional(z.string()),
});
const Entry = z.looseObject({
  startedDateTime: z.optional(z.string()),
  _resourceType: z.optional(z.string()),
  request: z.looseObject({
    method: z.string(),
    url: z.string(),
    headers: z.optional(z.array(NameValue)),
    postData: z.optional(
      z.looseObject({
        mimeType: z.optional(z.string()),
        text: z.optional(z.string()),
        params: z.optional(z.array(NameValue)),
      }),
    ),
  }),
  response: z.optional(
    z.nullable(z.looseObject({ content: z.optional(z.looseObject({ mimeType: z.optional(z.string()) })) })),
  ),
});
type HarEntry = z.infer<typeof Entry>;
const Har = z.looseObject({ log: z.looseObject({ entries: z.array(Entry) }) });

export interface ImportHarOptions {
  /** Keep images, style sheets, fonts, scripts and media. */
  includeAssets?: boolean;
}

const ASSET_TYPES = new Set(['image', 'stylesheet', 'font', 'script', 'media', 'manifest', 'texttrack']);
const ASSET_MIME = /^(image|font|audio|video)\/|^text\/css|javascript|ecmascript|^application\/(font|x-font)/i;
const ASSET_PATH = /\.(png|jpe?g|gif|svg|ico|webp|avif|bmp|css|m?js|map|woff2?|ttf|otf|eot|mp4|webm|mp3|ogg|wav)$/i;
/** Headers the engine writes itself, HTTP/2 pseudo-headers, and hop-by-hop ones. */
const DROPPED_HEADERS =
  /^(:.*|host|content-length|connection|keep-alive|transfer-encoding|upgrade|te|proxy-connection)$/i;
const SECRET_HEADER =
  /^(authorization|proxy-authorization|cookie)$|token|api[-_]?key|secret|session|csrf|xsrf|password|auth/i;
const SECRET_PARAM = /token|api[-_]?key|secret|password|passwd|signature|sig$|^key$|session|auth/i;

function isAsset(entry: HarEntry): boolean {
  if (entry._resourceType && ASSET_TYPES.has(entry._resourceType.toLowerCase())) return true;
  if (ASSET_MIME.test(entry.response?.content?.mimeType ?? '')) return true;
  try {
    return ASSET_PATH.test(new URL(entry.request.url).pathname);
  } catch {
    return false;
  }
}

/** Hands out variable names for secret values: the same value gets the same name. */
class SecretNames {
  private readonly byValue = new Map<string, string>();
  private readonly used = new Set<string>();

  constructor(private readonly env: EnvFiles) {}

  /** `{{name}}` for a value, storing it in the private env file. */
  variable(hint: string, value: string): string {
    let name = this.byValue.get(value);
    if (!name) {
      name = uniqueName(slugify(hint, 'secret').replace(/-/g, '_'), this.used);
      this.byValue.set(value, name);
      this.env.set(SHARED, name, value, true);
    }
    return `{{${name}}}`;
  }
}

function secretHeaderValue(name: string, value: string, secrets: SecretNames): string {
  // `Bearer abc` keeps its scheme in the file: `Bearer {{token}}`.
  const scheme = /^(Bearer|Basic|Digest|Token)\s+(.+)$/i.exec(value);
  if (name.toLowerCase() === 'authorization' && scheme)
    return `${scheme[1]} ${secrets.variable(scheme[1].toLowerCase() === 'bearer' ? 'token' : `${scheme[1]}_auth`, scheme[2])}`;
  return secrets.variable(name, value);
}

function urlWithSecrets(url: string, secrets: SecretNames): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  const hash = url.indexOf('#', query);
  const search = url.slice(query + 1, hash < 0 ? undefined : hash);
  const params = search.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    if (eq <= 0) return pair;
    const key = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    return value && SECRET_PARAM.test(decodeURIComponent(key)) ? `${key}=${secrets.variable(key, value)}` : pair;
  });
  return `${url.slice(0, query + 1)}${params.join('&')}${hash < 0 ? '' : url.slice(hash)}`;
}

function bodyOf(entry: HarEntry, warnings: string[], label: string): DraftBody {
  const post = entry.request.postData;
  if (!post) return { kind: 'none' };
  if (post.text !== undefined && post.text !== '') return { kind: 'text', text: post.text, substitute: false };
  const params = post.params ?? [];
  if (params.length === 0) return { kind: 'none' };
  if (/multipart/i.test(post.mimeType ?? '')) {
    if (params.some((p) => p.fileName))
      warnings.push(`${label}: uploaded file contents are not in the HAR; point the '< ./file' lines at the files`);
    return {
      kind: 'multipart',
      parts: params.map((p) =>
        p.fileName
          ? { name: p.name, filePath: p.fileName, contentType: p.contentType }
          : { name: p.name, value: p.value ?? '' },
      ),
    };
  }
  return {
    kind: 'text',
    text: params.map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(p.value ?? '')}`).join('&'),
    substitute: false,
  };
}

function convertEntry(
  entry: HarEntry,
  used: Set<string>,
  secrets: SecretNames,
  warnings: string[],
  label: string,
): ImportDraft {
  const headers: ImportDraft['headers'] = [];
  for (const header of entry.request.headers ?? []) {
    if (DROPPED_HEADERS.test(header.name)) continue;
    const value = header.value ?? '';
    headers.push({
      name: header.name,
      value: SECRET_HEADER.test(header.name) && value ? secretHeaderValue(header.name, value, secrets) : value,
    });
  }
  const body = bodyOf(entry, warnings, label);
  const mime = entry.request.postData?.mimeType;
  if (body.kind !== 'none' && mime && !headers.some((h) => h.name.toLowerCase() === 'content-type'))
    headers.push({ name: 'Content-Type', value: mime });
  const name = uniqueName(nameFromUrl(entry.request.url), used);
  const comments = entry.startedDateTime ? [`recorded ${entry.startedDateTime}`] : [];
  return {
    name,
    comments,
    metadata: [],
    method: entry.request.method.toUpperCase(),
    url: urlWithSecrets(entry.request.url, secrets),
    headers,
    body,
  };
}

/** Converts a parsed HAR; `file` names the source and the `.http` file written. */
export function convertHar(har: z.infer<typeof Har>, file: string, options: ImportHarOptions = {}): ImportResult {
  const warnings: string[] = [];
  const env = new EnvFiles();
  const secrets = new SecretNames(env);
  const used = new Set<string>();
  const drafts: ImportDraft[] = [];
  let assets = 0;
  har.log.entries.forEach((entry, index) => {
    const label = `${basename(file)} entry ${index + 1}`;
    if (!/^https?:\/\//i.test(entry.request.url)) {
      warnings.push(`${label}: skipped ${entry.request.url.slice(0, 40)} (not an http(s) URL)`);
      return;
    }
    if (!options.includeAssets && isAsset(entry)) {
      assets++;
      return;
    }
    drafts.push(convertEntry(entry, used, secrets, warnings, label));
  });
  const path = `${slugify(basename(file).replace(/\.har$/i, ''), 'har')}.http`;
  const { text, sideFiles } = renderHttpFile(drafts, { filePath: path, preamble: [`imported from ${basename(file)}`] });
  const files =
    drafts.length > 0
      ? [
          { path, content: text, description: `${drafts.length} request${drafts.length === 1 ? '' : 's'}` },
          ...sideFiles,
          ...env.files(),
        ]
      : [];
  const notes = [
    `${drafts.length} request${drafts.length === 1 ? '' : 's'} from ${har.log.entries.length} entr${har.log.entries.length === 1 ? 'y' : 'ies'}`,
  ];
  if (assets > 0)
    notes.push(
      `skipped ${assets} static asset${assets === 1 ? '' : 's'} (images, styles, fonts, scripts); --include-assets keeps them`,
    );
  if (drafts.length === 0) warnings.push(`${basename(file)}: no requests to import`);
  return { files, warnings, notes };
}

/** Reads, validates and converts a HAR file. */
export async function importHarFile(path: string, options: ImportHarOptions = {}): Promise<ImportResult> {
  const text = readSource(path, 'HAR file');
  const har = await validateSource(Har, parseJsonLocated(text, path, 'HAR file'), text, path, 'HAR file');
  return convertHar(har, path, options);
}

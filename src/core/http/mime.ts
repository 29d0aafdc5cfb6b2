/** A small built-in extension -> media type map for file uploads (no dependency). */
import { extname } from 'node:path';

const types: Record<string, string> = {
  '.json': 'application/json',
  '.txt': 'text/plain',
  '.text': 'text/plain',
  '.md': 'text/markdown',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.css': 'text/css',
  '.csv': 'text/csv',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.xml': 'application/xml',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.tar': 'application/x-tar',
  '.wasm': 'application/wasm',
  '.mp3': 'audio/mpeg',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.graphql': 'application/graphql',
  '.gql': 'application/graphql',
  '.http': 'text/plain',
};

/** The media type for a file name by its extension; application/octet-stream when unknown. */
export function guessContentType(fileName: string): string {
  return types[extname(fileName).toLowerCase()] ?? 'application/octet-stream';
}

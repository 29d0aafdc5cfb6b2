/** Building one request the HTTPie way: items, URLs, bodies, stdin, downloads, digest auth, masking. */
export { parseItem, parseKeyPath, type RequestItem, type KeySegment } from './items.js';
export { expandUrl, splitPositionals, isMethodToken, normaliseProxy } from './url.js';
export { buildRequest, buildJson, type BodyMode, type BuildRequestOptions } from './build.js';
export { peekStdinBody, collectStream } from './stdin.js';
export { downloadFileName, uniquePath } from './download.js';
export { Redactor, StreamRedactor } from './redact.js';

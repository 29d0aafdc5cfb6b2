/** The `.http` dialect: parser, printer and helpers (docs/http-format.md). */
export type * from './types.js';
export { parseHttpFile, refuseUnreadableRequests } from './parse.js';
export { parseAssertion, formatAssertion, AssertionSyntaxError } from './assertion.js';
export {
  printHttpFile,
  formatRequest,
  draftFromNode,
  replaceRequestText,
  replaceSpan,
  insertRequestText,
  removeRequestText,
} from './print.js';
export { expandMultipartBody, multipartBoundary, type ExpandMultipartOptions } from './multipart.js';
export { syntheticHttpFile, benchParse } from './bench.js';
export {
  DIALECTS,
  chooseDialect,
  detectRestClientSettings,
  detectWorkspaceDialect,
  dialectFromName,
  requireDialect,
  setDialectOverride,
  type Dialect,
  type DialectChoice,
} from './dialect.js';
export { KNOWN_METHODS, PROTOCOL_KEYWORDS, isKnownMethod } from './methods.js';
export { onParseWarning } from './warnings.js';
export type { ParseOptions } from './parse.js';
export { decodeFileBody } from './scripts.js';

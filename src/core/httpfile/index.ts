/** The `.http` dialect: parser, printer and helpers (docs/http-format.md). */
export type * from './types.js';
export { parseHttpFile } from './parse.js';
export { parseAssertion, formatAssertion, AssertionSyntaxError } from './assertion.js';
export {
  printHttpFile, formatRequest, draftFromNode, replaceRequestText, replaceSpan, insertRequestText, removeRequestText,
} from './print.js';
export { expandMultipartBody, multipartBoundary, type ExpandMultipartOptions } from './multipart.js';
export { syntheticHttpFile, benchParse } from './bench.js';

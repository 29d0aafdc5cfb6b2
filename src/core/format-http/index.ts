/** `dial fmt` and `dial check` cores: canonical layout, line diffs, and request signatures. */
export { formatHttpText, type FormatOptions } from './format.js';
export { unifiedDiff } from './diff.js';
export { fileSignature, sameSignature } from './signature.js';
export { indentJson } from './json-indent.js';
export { formatFiles, type FormatFilesOptions, type FormattedFile } from './files.js';

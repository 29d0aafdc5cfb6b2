/** Variables: `{{…}}` templates, dynamic variables, request references, the lookup order. */
export { findPlaceholders, hasPlaceholders, substitute, type Placeholder } from '../httpfile/placeholders.js';
export { evaluateDynamic, formatDate, type DynamicContext } from './dynamic.js';
export { parseReference, evaluateReference, type ReferenceExpression, type RecordedExchange } from './references.js';
export { queryJsonPath, valueToText } from './jsonpath.js';
export { VariableResolver, type ResolverOptions } from './resolver.js';

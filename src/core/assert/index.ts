/** Assertions: queries, predicates, JSONPath, JSON Schema and snapshots. */
export { evaluateAssertion, createSnapshotStores, type AssertionResult, type AssertContext } from './evaluate.js';
export { createResponseView, loadResponseView, type ResponseView } from './response-view.js';
export { applyPredicate, parseExpected, deepEqual, looseEqual, showValue } from './predicates.js';
export { queryJsonPath, removeJsonPath, simplePath } from './json-path.js';
export { structuralDiff, snapshotPathFor, SnapshotStore } from './snapshot.js';
export { validateSchema } from './schema.js';

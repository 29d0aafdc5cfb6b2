/** Script sandbox: the JetBrains handler API in node:vm. */
export { ScriptRunner, SCRIPT_TIMEOUT_MS, type ScriptOutcome } from './sandbox.js';
export { createResponseApi, UnsupportedApiError, type ScriptEnvironment, type ScriptTestResult } from './api.js';

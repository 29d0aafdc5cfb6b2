/** Script sandbox: the JetBrains handler API in QuickJS (WebAssembly), Node access only when the user trusts the workspace. */
export {
  ScriptRunner,
  SCRIPT_TIMEOUT_MS,
  SCRIPT_MEMORY_BYTES,
  type ScriptOutcome,
  type ScriptRunnerOptions,
} from './sandbox.js';
export { createResponseApi, UnsupportedApiError, type ScriptEnvironment, type ScriptTestResult } from './api.js';
export { defaultNodeAccess, isTrusted, trustFolder, untrustFolder, trustedFolders, trustFilePath } from './trust.js';

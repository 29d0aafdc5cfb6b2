/** Environments: env files, `.env`, and JSON files with located errors. */
export {
  EnvStore,
  parseEnvFile,
  folderChain,
  isEnvFileName,
  shownEnvPath,
  readsVscodeUserSettings,
  ENV_FILE,
  PRIVATE_ENV_FILE,
  DOTENV_FILE,
  SHARED_ENV,
  type EnvFile,
  type ResolvedEnvironment,
  type Dotenv,
  type EnvOrigin,
  type EnvReadOptions,
} from './env-store.js';
export { parseDotenv } from './dotenv.js';
export { SECURITY_KEY, type AuthConfigSource, type AuthConfigEntry } from './security.js';
export { parseJsonText, lineColAt } from './json-file.js';

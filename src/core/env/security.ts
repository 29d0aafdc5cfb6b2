/**
 * The `Security` section of an environment (JetBrains HTTP Client): `"Security": {"Auth":
 * {"name": {"Type": "OAuth2", …}}}`. It is not a variable: it is taken out of the environment
 * when the file is read and kept as named auth configurations, each with the line it is written
 * on, for `{{$auth.token("name")}}` (docs/oauth.md). Public and private files are merged field
 * by field (a private `Client Secret` completes a public configuration), nearer files winning.
 */
import { DialError } from '../errors.js';
import { lineColAt } from './json-file.js';
import { isObject } from '../json-object.js';

/** The key of the section in an environment. */
export const SECURITY_KEY = 'Security';

/** One named auth configuration as written in one env file. */
export interface AuthConfigEntry {
  /** The fields as written (`"Grant Type": "Client Credentials"`, `"PKCE": true`…). */
  fields: Record<string, unknown>;
  /** Where its name is written. */
  file: string;
  line: number;
  /** From http-client.private.env.json. */
  private: boolean;
}

/** Auth configurations of one environment, merged over the files that define them. */
export interface AuthConfigSource {
  name: string;
  fields: Record<string, unknown>;
  /** The nearest file that defines it, and the line of its name there. */
  file: string;
  line: number;
  /** Fields whose winning value comes from a private env file (their values are secrets). */
  privateFields: Set<string>;
}

/** The offset of `"key"` as a JSON key at or after `from` (best effort: for messages only). */
function keyOffset(text: string, key: string, from: number): number {
  const at = text.indexOf(`${JSON.stringify(key)}`, from);
  return at < 0 ? from : at;
}

/**
 * Takes `Security` out of each environment of a parsed env file and returns its `Auth`
 * configurations by environment. A `Security` that is not an object, or an `Auth` entry that
 * is not an object, is an E_ENV pointing at it.
 */
export function extractSecurity(
  data: Record<string, unknown>,
  text: string,
  path: string,
  isPrivate: boolean,
): Record<string, Record<string, AuthConfigEntry>> {
  const found: Record<string, Record<string, AuthConfigEntry>> = {};
  for (const [envName, variables] of Object.entries(data)) {
    if (!isObject(variables) || !Object.hasOwn(variables, SECURITY_KEY)) continue;
    const security = variables[SECURITY_KEY];
    delete variables[SECURITY_KEY];
    const envAt = keyOffset(text, envName, 0);
    const securityAt = keyOffset(text, SECURITY_KEY, envAt);
    const fail = (message: string, at: number, hint: string): never => {
      const { line, col } = lineColAt(text, at);
      throw new DialError('E_ENV', message, {
        location: { file: path, line, col, excerpt: text.split(/\r?\n/)[line - 1] },
        hint,
      });
    };
    const shape = '"Security": {"Auth": {"my-auth": {"Type": "OAuth2", "Grant Type": "Client Credentials", …}}}';
    if (!isObject(security)) fail(`"Security" of environment '${envName}' must be an object`, securityAt, shape);
    const auth = (security as Record<string, unknown>).Auth;
    // An empty list (kulala writes `"Auth": []` in a new env file) holds no configuration.
    if (auth === undefined || (Array.isArray(auth) && auth.length === 0)) continue;
    const authAt = keyOffset(text, 'Auth', securityAt);
    if (!isObject(auth)) fail(`"Security.Auth" of environment '${envName}' must be an object`, authAt, shape);
    const configs: Record<string, AuthConfigEntry> = {};
    for (const [name, fields] of Object.entries(auth as Record<string, unknown>)) {
      const at = keyOffset(text, name, authAt);
      if (!isObject(fields))
        fail(`auth configuration '${name}' of environment '${envName}' must be an object`, at, shape);
      configs[name] = {
        fields: fields as Record<string, unknown>,
        file: path,
        line: lineColAt(text, at).line,
        private: isPrivate,
      };
    }
    found[envName] = configs;
  }
  return found;
}

/** Merges the auth configurations of `layers` (lowest first) over `files` (root first, public before private). */
export function mergeAuthConfigs(
  files: ReadonlyArray<{ security?: Record<string, Record<string, AuthConfigEntry>> }>,
  layers: readonly string[],
): Map<string, AuthConfigSource> {
  const merged = new Map<string, AuthConfigSource>();
  for (const layer of layers) {
    for (const file of files) {
      const configs = file.security?.[layer];
      if (!configs) continue;
      for (const [name, entry] of Object.entries(configs)) {
        let target = merged.get(name);
        if (!target) {
          target = { name, fields: {}, file: entry.file, line: entry.line, privateFields: new Set() };
          merged.set(name, target);
        }
        // The public file is where a configuration is written; a private file only completes it.
        if (!entry.private || !target.fields.Type) Object.assign(target, { file: entry.file, line: entry.line });
        for (const [field, value] of Object.entries(entry.fields)) {
          target.fields[field] = value;
          if (entry.private) target.privateFields.add(field);
          else target.privateFields.delete(field);
        }
      }
    }
  }
  return merged;
}

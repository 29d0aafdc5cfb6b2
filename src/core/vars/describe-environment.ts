/** `dial env show NAME`: an environment's variables, resolved, with where each came from. */
import { MASK, redactText } from '../secrets.js';
import { VariableResolver } from './resolver.js';
import { EnvStore, shownEnvPath } from '../env/index.js';

export interface EnvironmentVariableRow {
  name: string;
  /** Resolved value (masked when secret unless revealed); the raw template if it cannot be resolved. */
  value: string;
  secret: boolean;
  /** Root-relative file the value came from (`.env` for the dotenv section); absolute outside the root (the user's VS Code settings). */
  source: string;
  /** Set when the value could not be resolved (it is shown as written). */
  unresolved?: string;
}

export interface EnvironmentDescription {
  name?: string;
  variables: EnvironmentVariableRow[];
  /** Values of the workspace root's .env (level 5, apply to every environment). */
  dotenv: EnvironmentVariableRow[];
  files: string[];
}

/** Resolves every variable of environment `name` as a `.http` file in `dir` would see it. */
export async function describeEnvironment(
  root: string,
  dir: string,
  name: string | undefined,
  options: { reveal?: boolean; processEnv?: Record<string, string | undefined> } = {},
): Promise<EnvironmentDescription> {
  const store = new EnvStore(root);
  const [environment, dotenv] = await Promise.all([store.resolve(dir, name), store.dotenv()]);
  const resolver = new VariableResolver({
    cliVariables: {},
    globals: new Map(),
    fileVariables: new Map(),
    environment,
    dotenv,
    secretNames: new Set(),
    processEnv: options.processEnv ?? process.env,
    where: name ? `environment '${name}'` : 'environment $shared',
    fileLabel: '(none)',
  });
  const rel = (path: string) => shownEnvPath(root, path);
  const rows: EnvironmentVariableRow[] = [];
  for (const key of [...environment.values.keys()].sort()) {
    let value = environment.values.get(key)!;
    let unresolved: string | undefined;
    try {
      value = await resolver.variable(key);
    } catch (error) {
      unresolved = (error as Error).message;
    }
    rows.push({
      name: key,
      value,
      secret: environment.secretNames.has(key),
      source: rel(environment.sources.get(key)!),
      ...(unresolved ? { unresolved } : {}),
    });
  }
  const dotenvRows = [...(dotenv?.values ?? new Map<string, string>())].map(([key, value]) => ({
    name: key,
    value,
    secret: true,
    source: rel(dotenv!.path),
  }));
  if (!options.reveal) {
    // Secret values are masked, also where they are embedded in other values.
    const secrets = [
      ...resolver.secretValues,
      ...rows.filter((row) => row.secret).map((row) => row.value),
      ...dotenvRows.map((row) => row.value),
    ];
    for (const row of [...rows, ...dotenvRows]) row.value = row.secret ? MASK : redactText(row.value, secrets);
  }
  return { name, variables: rows, dotenv: dotenvRows, files: environment.files.map(rel) };
}

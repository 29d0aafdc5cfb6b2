import type { Command } from 'commander';
import { useColor } from './globals.js';

async function workspace() {
  const { findWorkspaceRoot } = await import('../core/workspace/discover.js');
  const cwd = process.cwd();
  return { cwd, root: findWorkspaceRoot(cwd) };
}

async function listEnvironments(flags: { json?: boolean }, command: Command): Promise<void> {
  const [{ cwd, root }, { EnvStore }, { loadSettings }, { createStyle }] = await Promise.all([
    workspace(),
    import('../core/env/index.js'),
    import('../core/settings/index.js'),
    import('../core/style.js'),
  ]);
  const store = new EnvStore(root);
  const [origins, files, settings] = await Promise.all([store.origins(cwd), store.describe(cwd), loadSettings()]);
  const names = [...origins.keys()];
  const remembered = settings.defaultEnvironment[root];
  if (flags.json) {
    const environments = names.map((name) => ({
      name,
      default: name === remembered,
      files: origins.get(name)!.map((origin) => origin.path),
    }));
    process.stdout.write(`${JSON.stringify({ workspace: root, files, environments }, null, 2)}\n`);
    return;
  }
  if (names.length === 0) {
    process.stderr.write(`no environments: no http-client.env.json between ${cwd} and the workspace root ${root}\n`);
    return;
  }
  const style = createStyle(useColor(command, process.stdout));
  // Where an environment defined in VS Code's settings comes from (the user's settings are read
  // from outside the workspace, so they are named); env files are the usual place and go unnamed.
  const label = { user: 'VS Code user settings', 'workspace-file': 'VS Code workspace', folder: 'VS Code settings' };
  const from = (name: string): string => {
    const vscode = origins.get(name)!.filter((origin) => origin.vscode);
    if (vscode.length === 0) return '';
    return ` ${style.dim(`(${vscode.map((origin) => `${label[origin.vscode!]}: ${origin.path}`).join('; ')})`)}`;
  };
  const lines = names.map(
    (name) => `${name === remembered ? `${style.bold(name)} ${style.dim('(last used)')}` : name}${from(name)}`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function showEnvironment(
  name: string,
  flags: { json?: boolean; reveal?: boolean },
  command: Command,
): Promise<void> {
  const [{ cwd, root }, { describeEnvironment }, { createStyle }] = await Promise.all([
    workspace(),
    import('../core/vars/describe-environment.js'),
    import('../core/style.js'),
  ]);
  const described = await describeEnvironment(root, cwd, name, { reveal: flags.reveal });
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(described, null, 2)}\n`);
    return;
  }
  const style = createStyle(useColor(command, process.stdout));
  const rows = [...described.variables, ...described.dotenv];
  const nameWidth = Math.max(0, ...rows.map((row) => row.name.length));
  const valueWidth = Math.min(60, Math.max(0, ...rows.map((row) => row.value.length)));
  const print = (row: (typeof rows)[number]) =>
    `${style.bold(row.name.padEnd(nameWidth))} = ${row.value.padEnd(valueWidth)}  ${style.dim(row.source)}${row.unresolved ? `  ${style.warn('unresolved')}` : ''}`.trimEnd();
  const out: string[] = described.variables.map(print);
  if (described.variables.length === 0) out.push(style.dim(`(no variables in '${name}')`));
  if (described.dotenv.length) out.push('', style.dim('.env (every environment):'), ...described.dotenv.map(print));
  process.stdout.write(`${out.join('\n')}\n`);
}

/** `dial env [list|show NAME]`: environments and resolved variables (secrets masked). */
export function registerEnv(program: Command): void {
  const env = program.command('env').description('Show environments and their resolved variables (secrets masked)');
  env
    .command('list', { isDefault: true })
    .description('List the environments of the workspace')
    .option('--json', 'print as JSON')
    .action((flags: { json?: boolean }, command: Command) => listEnvironments(flags, command));
  env
    .command('show')
    .description('Show the resolved variables of an environment')
    .argument('<name>', 'environment name ($shared for the shared values only)')
    .option('--json', 'print as JSON')
    .option('--reveal', 'show secret values instead of masking them')
    .action((name: string, flags: { json?: boolean; reveal?: boolean }, command: Command) =>
      showEnvironment(name, flags, command),
    );
}

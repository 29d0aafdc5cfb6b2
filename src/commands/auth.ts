/**
 * `dial auth login|token|logout`: the OAuth 2.0 tokens of `Security.Auth` configurations
 * (docs/oauth.md) by hand. `login` signs in now (a new token, cache or not); `token` prints the
 * access token a request would send (cached, refreshed or new), for scripts; `logout` forgets
 * cached tokens. The token is resolved exactly as in a request: through a session and
 * `{{$auth.token("name")}}`, so variables in the configuration, private env files and --var apply.
 */
import type { Command } from 'commander';
import { addVariableFlags } from './flags.js';
import { globalOptions } from './globals.js';

interface AuthFlags {
  env?: string;
  var: string[];
}

/** The workspace, the environment (-e, else the one last used there) and a session resolving `{{$auth.…}}` in it. */
async function authSession(flags: AuthFlags, acquire: 'always' | 'fresh') {
  const [{ findWorkspaceRoot }, { createSession }, { parseHttpFile }, { loadSettings }, { parseVariables }, host] =
    await Promise.all([
      import('../core/workspace/discover.js'),
      import('../core/session/index.js'),
      import('../core/httpfile/parse.js'),
      import('../core/settings/index.js'),
      import('./flag-schemas.js'),
      import('./oauth-host.js'),
    ]);
  const { join } = await import('node:path');
  const cwd = process.cwd();
  const root = findWorkspaceRoot(cwd);
  const environment = flags.env ?? (await loadSettings()).defaultEnvironment[root];
  const session = createSession({
    workspaceRoot: root,
    environment,
    cliVariables: parseVariables(flags.var),
    oauth: { ...host.oauthHost((text) => process.stderr.write(text)), acquire },
  });
  // A request of its own, in the folder dial runs in (env files are looked up from there).
  const file = parseHttpFile('GET http://dial.invalid/\n', join(cwd, 'dial-auth.http'));
  return { session, file, root, environment };
}

async function tokenOf(name: string, kind: 'token' | 'idToken', flags: AuthFlags, acquire: 'always' | 'fresh') {
  const { session, file, environment } = await authSession(flags, acquire);
  const { DialError, isDialError } = await import('../core/errors.js');
  try {
    const value = await session.resolveTemplate(`{{$auth.${kind}(${JSON.stringify(name)})}}`, file, file.requests[0]);
    return { value, environment };
  } catch (error) {
    // The request is dial's own: an error names the configuration, not a place in a made-up file.
    if (!isDialError(error) || error.location?.file !== file.path) throw error;
    throw new DialError(error.code, error.message.replace(/ \((used by )?request #1 at dial-auth\.http:1\)/, ''), {
      hint: error.hint,
      cause: error,
    });
  }
}

/** Registers `dial auth`. */
export function registerAuth(program: Command): void {
  const auth = program
    .command('auth')
    .description('OAuth 2.0 tokens of the Security.Auth configurations in env files: sign in, print, forget');
  addVariableFlags(
    auth
      .command('login')
      .description('sign in now with auth configuration NAME (a new token, even if one is cached)')
      .argument('<name>', 'the auth configuration (Security.Auth in http-client.env.json)'),
    { env: 'environment whose configuration to use', var: 'set a variable the configuration uses (repeatable)' },
  ).action(async (name: string, flags: AuthFlags, command: Command) => {
    const { environment } = await tokenOf(name, 'token', flags, 'fresh');
    if (!globalOptions(command).quiet)
      process.stderr.write(
        `dial: signed in with '${name}'${environment ? ` (environment '${environment}')` : ''}; the token is cached\n`,
      );
  });
  addVariableFlags(
    auth
      .command('token')
      .description("print NAME's access token (cached, refreshed or new) to stdout, for scripts")
      .argument('<name>', 'the auth configuration (Security.Auth in http-client.env.json)')
      .option('--id-token', 'print the OpenID Connect ID token instead'),
    { env: 'environment whose configuration to use', var: 'set a variable the configuration uses (repeatable)' },
  ).action(async (name: string, flags: AuthFlags & { idToken?: boolean }) => {
    const { value } = await tokenOf(name, flags.idToken ? 'idToken' : 'token', flags, 'always');
    process.stdout.write(`${value}\n`);
  });
  auth
    .command('logout')
    .description('forget the cached tokens of this workspace (of NAME, of one environment with -e)')
    .argument('[name]', 'only the tokens of this auth configuration')
    .option('-e, --env <name>', 'only the tokens of this environment')
    .option('--all', 'forget every cached token, of every workspace')
    .action(async (name: string | undefined, flags: { env?: string; all?: boolean }, command: Command) => {
      const [{ findWorkspaceRoot }, { forgetTokens, defaultCacheFile }] = await Promise.all([
        import('../core/workspace/discover.js'),
        import('../core/oauth/index.js'),
      ]);
      const root = flags.all ? undefined : findWorkspaceRoot(process.cwd());
      const dropped = await forgetTokens(defaultCacheFile(process.env), {
        ...(root !== undefined && { workspaceRoot: root }),
        ...(flags.env !== undefined && { environment: flags.env }),
        ...(name !== undefined && { name }),
      });
      if (!globalOptions(command).quiet)
        process.stderr.write(`dial: forgot ${dropped} cached token${dropped === 1 ? '' : 's'}\n`);
    });
}

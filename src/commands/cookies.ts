/**
 * `dial cookies list|clear`: the saved cookie jars (one per workspace and environment, in the
 * config folder; docs/cookies.md). Values are masked when shown: the jar file alone holds them.
 */
import type { Command } from 'commander';
import type { StoredCookie } from '../core/http/cookies.js';
import type { JarSummary } from '../core/cookies/jar-file.js';
import { useColor } from './globals.js';

interface JarFlags {
  env?: string;
  all?: boolean;
  cookieJar?: string;
  json?: boolean;
}

/** `.example.com` for a domain cookie, the host alone for a host-only one. */
function domainText(cookie: StoredCookie): string {
  return cookie.hostOnly ? cookie.domain : `.${cookie.domain}`;
}

function attributes(cookie: StoredCookie): string {
  return [
    cookie.expires === undefined ? 'session' : `expires ${new Date(cookie.expires).toISOString()}`,
    cookie.secure && 'Secure',
    cookie.httpOnly && 'HttpOnly',
    cookie.sameSite && `SameSite=${cookie.sameSite}`,
  ]
    .filter(Boolean)
    .join('  ');
}

/** The jars the flags name: this workspace's (or every one with --all, or the --cookie-jar file), one environment with -e. */
async function selectedJars(flags: JarFlags): Promise<{ jars: JarSummary[]; where: string }> {
  const { listWorkspaceJars, readJarFile, workspaceJarPath } = await import('../core/cookies/jar-file.js');
  const { findWorkspaceRoot } = await import('../core/workspace/discover.js');
  const { resolve } = await import('node:path');
  const { cookieFromJson } = await import('../core/cookies/saved-cookie.js');
  const root = findWorkspaceRoot(process.cwd());
  let jars: JarSummary[];
  let where: string;
  if (flags.cookieJar !== undefined || !flags.all) {
    const path = flags.cookieJar !== undefined ? resolve(flags.cookieJar) : workspaceJarPath(root);
    const file = readJarFile(path, root);
    const now = Date.now();
    jars = Object.keys(file.environments)
      .sort()
      .map((environment) => ({
        path,
        workspace: file.workspace,
        environment,
        cookies: file.environments[environment]
          .map(cookieFromJson)
          .filter((c): c is StoredCookie => c !== undefined && (c.expires === undefined || c.expires > now)),
      }));
    where = flags.cookieJar !== undefined ? path : `the workspace ${root}`;
  } else {
    jars = listWorkspaceJars();
    where = 'any workspace';
  }
  if (flags.env !== undefined) jars = jars.filter((jar) => jar.environment === flags.env);
  return { jars, where };
}

export function registerCookies(program: Command): void {
  const cookies = program
    .command('cookies')
    .description('List or clear the saved cookie jars (per workspace and environment)');

  cookies
    .command('list', { isDefault: true })
    .description("List the saved cookies of this workspace's jars (values masked)")
    .option('-e, --env <name>', 'only the jar of this environment')
    .option('--all', 'the jars of every workspace')
    .option('--cookie-jar <file>', 'the jar in FILE (as given to send/run --cookie-jar)')
    .option('--json', 'print the jars as JSON (values masked)')
    .action(async (flags: JarFlags, command: Command) => {
      const [{ createStyle }, { MASK }, { NO_ENVIRONMENT }] = await Promise.all([
        import('../core/style.js'),
        import('../core/secrets.js'),
        import('../core/cookies/jar-file.js'),
      ]);
      const { jars, where } = await selectedJars(flags);
      if (flags.json) {
        const shown = jars.map((jar) => ({
          ...jar,
          cookies: jar.cookies.map((cookie) => ({
            ...cookie,
            value: MASK,
            expires: cookie.expires === undefined ? null : new Date(cookie.expires).toISOString(),
            created: new Date(cookie.created).toISOString(),
          })),
        }));
        process.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
        return;
      }
      const style = createStyle(useColor(command));
      const nonEmpty = jars.filter((jar) => jar.cookies.length > 0);
      if (nonEmpty.length === 0) {
        process.stdout.write(`no saved cookies for ${where}\n`);
        return;
      }
      for (const jar of nonEmpty) {
        const environment = jar.environment === NO_ENVIRONMENT ? '(no environment)' : jar.environment;
        process.stdout.write(`${style.bold(jar.workspace)}  ${environment}  ${style.dim(jar.path)}\n`);
        for (const cookie of jar.cookies)
          process.stdout.write(
            `  ${cookie.name}=${MASK}  ${domainText(cookie)}${cookie.path}  ${style.dim(attributes(cookie))}\n`,
          );
      }
    });

  cookies
    .command('clear')
    .description("Delete the saved cookies of this workspace's jars")
    .option('-e, --env <name>', 'only the jar of this environment')
    .option('--all', 'the jars of every workspace')
    .option('--cookie-jar <file>', 'the jar in FILE (as given to send/run --cookie-jar)')
    .action(async (flags: JarFlags) => {
      const { clearJarFile } = await import('../core/cookies/jar-file.js');
      const { jars, where } = await selectedJars(flags);
      let removed = 0;
      for (const path of new Set(jars.map((jar) => jar.path))) removed += clearJarFile(path, '', flags.env);
      process.stdout.write(
        `removed ${removed} cookie${removed === 1 ? '' : 's'} of ${where}${flags.env !== undefined ? ` (environment ${flags.env})` : ''}\n`,
      );
    });
}

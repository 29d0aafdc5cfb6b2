/**
 * `dial sessions list|show NAME|clear [NAME]`: the named sessions of `dial send --session`
 * (per host, in the config folder; docs/cookies.md). Credentials, sensitive headers and cookie
 * values are masked when shown: the session file alone holds them.
 */
import type { Command } from 'commander';
import type { SessionData, SessionSummary } from '../core/cookies/send-session.js';
import { useColor } from './globals.js';

/** A session with what it holds masked: header names and auth type stay readable. */
async function maskedSession(data: SessionData): Promise<Record<string, unknown>> {
  const { MASK, isSensitiveHeader } = await import('../core/secrets.js');
  return {
    headers: data.headers.map(([name, value]) => [name, isSensitiveHeader(name) ? MASK : value]),
    ...(data.auth ? { auth: { type: data.auth.type, credentials: MASK } } : {}),
    cookies: data.cookies.map((cookie) => ({ ...cookie, value: MASK })),
  };
}

/** The named sessions a NAME and --host select; E_NOT_FOUND when none does. */
async function selectSessions(name: string | undefined, host: string | undefined): Promise<SessionSummary[]> {
  const { listSessions, hostKey } = await import('../core/cookies/send-session.js');
  const key = host === undefined ? undefined : hostKey(host);
  return listSessions().filter(
    (session) => (name === undefined || session.name === name) && (key === undefined || session.host === key),
  );
}

async function notFound(name: string | undefined, host: string | undefined): Promise<Error> {
  const { DialError } = await import('../core/errors.js');
  const what = `${name === undefined ? 'no session' : `no session '${name}'`}${host === undefined ? '' : ` for ${host}`}`;
  return new DialError('E_NOT_FOUND', what, { hint: 'list them with `dial sessions list`' });
}

export function registerSessions(program: Command): void {
  const sessions = program
    .command('sessions')
    .description('List, show or clear the named sessions of `dial send --session`');

  sessions
    .command('list', { isDefault: true })
    .description('List the named sessions, per host')
    .option('--json', 'print them as JSON (credentials masked)')
    .action(async (flags: { json?: boolean }, command: Command) => {
      const [{ listSessions }, { createStyle }] = await Promise.all([
        import('../core/cookies/send-session.js'),
        import('../core/style.js'),
      ]);
      const found = listSessions();
      if (flags.json) {
        const shown = [];
        for (const s of found)
          shown.push({ host: s.host, name: s.name, path: s.path, ...(await maskedSession(s.data)) });
        process.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
        return;
      }
      if (found.length === 0) {
        process.stdout.write('no sessions (dial send --session NAME URL makes one)\n');
        return;
      }
      const style = createStyle(useColor(command));
      for (const s of found) {
        const parts = [
          `${s.data.headers.length} header${s.data.headers.length === 1 ? '' : 's'}`,
          `${s.data.cookies.length} cookie${s.data.cookies.length === 1 ? '' : 's'}`,
          s.data.auth ? `${s.data.auth.type} auth` : undefined,
        ].filter(Boolean);
        process.stdout.write(
          `${s.host}  ${style.bold(s.name)}  ${parts.join(', ')}  ${style.dim(s.modified.toISOString())}\n`,
        );
      }
    });

  sessions
    .command('show')
    .description('Print a named session (credentials, sensitive headers and cookie values masked)')
    .argument('<name>', 'the session name (or a session file path)')
    .option('--host <host>', 'the host (host:port) when the name is used for several')
    .action(async (name: string, flags: { host?: string }) => {
      const { isSessionPath, readSession } = await import('../core/cookies/send-session.js');
      if (isSessionPath(name)) {
        const { resolve } = await import('node:path');
        const path = resolve(name);
        const { existsSync } = await import('node:fs');
        if (!existsSync(path)) throw await notFound(name, undefined);
        process.stdout.write(`${JSON.stringify({ path, ...(await maskedSession(readSession(path))) }, null, 2)}\n`);
        return;
      }
      const found = await selectSessions(name, flags.host);
      if (found.length === 0) throw await notFound(name, flags.host);
      const shown = [];
      for (const s of found) shown.push({ host: s.host, name: s.name, path: s.path, ...(await maskedSession(s.data)) });
      process.stdout.write(`${JSON.stringify(shown.length === 1 ? shown[0] : shown, null, 2)}\n`);
    });

  sessions
    .command('clear')
    .description('Delete named sessions: all of them, those of NAME, or of --host')
    .argument('[name]', 'the session name (default: every session)')
    .option('--host <host>', 'only the sessions of this host (host:port)')
    .action(async (name: string | undefined, flags: { host?: string }) => {
      const { clearSessions, hostKey } = await import('../core/cookies/send-session.js');
      const removed = clearSessions({
        ...(name !== undefined && { name }),
        ...(flags.host !== undefined && { host: hostKey(flags.host) }),
      });
      if (removed.length === 0 && (name !== undefined || flags.host !== undefined))
        throw await notFound(name, flags.host);
      process.stdout.write(`removed ${removed.length} session${removed.length === 1 ? '' : 's'}\n`);
      for (const s of removed) process.stdout.write(`  ${s.host}  ${s.name}\n`);
    });
}

import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  clearJarFile,
  listWorkspaceJars,
  openWorkspaceJar,
  workspaceJarPath,
} from '../../../src/core/cookies/jar-file.js';
import { tempDir } from '../../helpers/cli.js';

function setup() {
  const env = { DIAL_CONFIG_DIR: tempDir('dial-jar-config-') };
  const root = tempDir('dial-jar-ws-');
  return { env, root };
}

describe('saved cookie jars', () => {
  it('a fork starts from the saved cookies; save keeps what it set, in a 0600 file in the config folder', () => {
    const { env, root } = setup();
    const first = openWorkspaceJar({ root, environment: 'dev', env });
    first.fork().store('http://api.test/login', ['sid=s3cret; Path=/', 'theme=dark; Path=/; Max-Age=3600']);
    first.save();
    expect(first.path).toBe(workspaceJarPath(root, env));
    expect(first.path.startsWith(join(env.DIAL_CONFIG_DIR, 'cookies'))).toBe(true);
    expect(statSync(first.path).mode & 0o777).toBe(0o600);
    expect(statSync(join(env.DIAL_CONFIG_DIR, 'cookies')).mode & 0o777).toBe(0o700);
    const again = openWorkspaceJar({ root, environment: 'dev', env }).fork();
    expect(again.cookieHeaderFor('http://api.test/me')).toBe('sid=s3cret; theme=dark');
  });

  it('keeps one jar per environment: a cookie of dev is not sent under prod or without -e', () => {
    const { env, root } = setup();
    const dev = openWorkspaceJar({ root, environment: 'dev', env });
    dev.fork().store('http://api.test/', ['sid=dev-only; Path=/']);
    dev.save();
    expect(openWorkspaceJar({ root, environment: 'prod', env }).fork().cookieHeaderFor('http://api.test/')).toBe(
      undefined,
    );
    expect(openWorkspaceJar({ root, env }).fork().cookieHeaderFor('http://api.test/')).toBeUndefined();
    expect(listWorkspaceJars(env).map((jar) => [jar.workspace, jar.environment, jar.cookies.length])).toEqual([
      [root, 'dev', 1],
    ]);
  });

  it('two commands saving at once each keep their cookies; a removal removes', () => {
    const { env, root } = setup();
    const seed = openWorkspaceJar({ root, env });
    seed.fork().store('http://api.test/', ['old=1; Path=/']);
    seed.save();
    const a = openWorkspaceJar({ root, env });
    const b = openWorkspaceJar({ root, env });
    const forkA = a.fork();
    const forkB = b.fork();
    forkA.store('http://api.test/', ['a=1; Path=/']);
    forkB.store('http://api.test/', ['b=1; Path=/', 'old=; Max-Age=0; Path=/']);
    a.save();
    b.save();
    const names = openWorkspaceJar({ root, env })
      .fork()
      .list()
      .map((c) => c.name)
      .sort();
    expect(names).toEqual(['a', 'b']);
  });

  it('drops expired cookies when saving and a fork that changed nothing writes nothing', () => {
    const { env, root } = setup();
    const jar = openWorkspaceJar({ root, env });
    jar.fork();
    jar.save();
    expect(() => statSync(jar.path)).toThrow();
    const path = workspaceJarPath(root, env);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(
      path,
      JSON.stringify({
        workspace: root,
        environments: {
          '': [
            { name: 'stale', value: '1', domain: 'api.test', path: '/', expires: '2000-01-01T00:00:00Z' },
            { name: 'fresh', value: '1', domain: 'api.test', path: '/' },
          ],
        },
      }),
    );
    const next = openWorkspaceJar({ root, env });
    next.fork().store('http://api.test/', ['more=1; Path=/']);
    next.save();
    const saved = JSON.parse(readFileSync(path, 'utf8')) as { environments: Record<string, Array<{ name: string }>> };
    expect(saved.environments[''].map((c) => c.name).sort()).toEqual(['fresh', 'more']);
  });

  it('a broken jar file is reported and read as empty; --cookie-jar FILE is used instead of the config folder', () => {
    const { env, root } = setup();
    const path = join(root, 'jar.json');
    writeFileSync(path, '{not json');
    const problems: string[] = [];
    const jar = openWorkspaceJar({ root, env, path, onProblem: (m) => problems.push(m) });
    const fork = jar.fork();
    expect(problems).toEqual([expect.stringContaining('is not valid JSON')]);
    fork.store('http://api.test/', ['x=1; Path=/']);
    jar.save();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(listWorkspaceJars(env)).toEqual([]);
    expect(clearJarFile(path, root)).toBe(1);
    expect(() => statSync(path)).toThrow();
  });
});

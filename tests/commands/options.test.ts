/** The commands' zod schemas: the one place flag values are checked and their errors worded. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sendOptions } from '../../src/commands/send/options.js';
import { quickSendOptions } from '../../src/commands/send/option-values.js';
import { runOptions } from '../../src/commands/run/options.js';
import { quickRunOptions } from '../../src/commands/run/option-values.js';
import { parseVariables } from '../../src/commands/flag-schemas.js';
import { DialError } from '../../src/core/errors.js';

function usageError(run: () => unknown): DialError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DialError);
    expect((error as DialError).code).toBe('E_USAGE');
    return error as DialError;
  }
  throw new Error('expected a usage error');
}

describe('dial send options', () => {
  it('turns flags into typed values', () => {
    const options = sendOptions({
      form: true,
      maxRedirects: '3',
      timeout: '2s',
      print: 'Hh',
      verify: 'no',
      output: 'out.bin',
      auth: 'ann:secret:x',
      authType: 'Digest',
      var: ['host=localhost:3000', 'empty='],
      proxy: 'http:http://proxy.local:3128',
    });
    expect(options).toMatchObject({
      bodyMode: 'form',
      forceJson: false,
      maxRedirects: 3,
      timeoutMs: 2000,
      print: { requestHeaders: true, responseHeaders: true, requestBody: false, responseBody: false, meta: false },
      verify: { verify: false, source: '--verify no' },
      download: { to: 'file', path: 'out.bin' },
      auth: { type: 'digest', username: 'ann', password: 'secret:x', secretParts: ['ann', 'secret'] },
      variables: { host: 'localhost:3000', empty: '' },
      variablesGiven: true,
      proxy: 'http://proxy.local:3128',
    });
  });

  it('leaves unset flags to the settings', () => {
    const options = sendOptions({ var: [] });
    expect(options.verify).toBeUndefined();
    expect(options.timeoutMs).toBeUndefined();
    expect(options.maxRedirects).toBeUndefined();
    expect(options.follow).toBeUndefined();
    expect(options.variablesGiven).toBe(false);
  });

  it('--verify PATH is a CA bundle, and --insecure wins over --verify yes', () => {
    expect(sendOptions({ verify: 'ca.pem' })).toMatchObject({ caFile: 'ca.pem', verify: undefined });
    expect(sendOptions({ verify: 'yes', insecure: true }).verify).toEqual({ verify: false, source: '--insecure' });
  });

  it('words each bad flag as a usage error with a hint where one helps', () => {
    expect(usageError(() => sendOptions({ maxRedirects: 'ten' })).message).toBe(
      "--max-redirects takes a whole number, got 'ten'",
    );
    expect(usageError(() => sendOptions({ json: true, multipart: true })).message).toBe(
      '--json and --multipart cannot be combined',
    );
    const keyOnly = usageError(() => sendOptions({ key: 'k.pem' }));
    expect([keyOnly.message, keyOnly.hint]).toEqual([
      '--key needs --cert',
      'pass the client certificate with --cert FILE and its key with --key FILE',
    ]);
    expect(usageError(() => sendOptions({ authType: 'ntlm', auth: 'a:b' })).message).toBe("unknown --auth-type 'ntlm'");
    expect(usageError(() => sendOptions({ authType: 'digest' })).message).toBe('--auth-type needs --auth');
    expect(usageError(() => sendOptions({ auth: 'nopassword' })).message).toBe(
      "--auth 'nopassword' is not USER:PASSWORD",
    );
    expect(usageError(() => sendOptions({ timeout: 'soon' })).message).toBe("invalid --timeout 'soon'");
    expect(usageError(() => sendOptions({ print: 'x' })).message).toBe("invalid --print value 'x'");
  });

  it('a bearer token needs no colon', () => {
    expect(sendOptions({ auth: 'abc.def', authType: 'bearer' }).auth).toEqual({ type: 'bearer', token: 'abc.def' });
  });
});

describe("dial send's quick check (no zod on a plain send)", () => {
  const values: Record<string, unknown[]> = {
    json: [undefined, true, false, 'yes'],
    form: [undefined, true],
    multipart: [undefined, true],
    offline: [undefined, true],
    curl: [undefined, true],
    print: [undefined, 'Hh', 'hbm', 'x', ''],
    checkStatus: [undefined, true],
    download: [undefined, true],
    output: [undefined, 'out.bin'],
    follow: [undefined, true, false],
    maxRedirects: [undefined, '3', ' 7 ', 'ten', '-1', '1.5', '99999999999999999999'],
    timeout: [undefined, '2s', '500ms', 'soon', '0'],
    verify: [undefined, 'no', 'YES', 'ca.pem'],
    insecure: [undefined, true],
    cacert: [undefined, 'ca.pem'],
    cert: [undefined, 'c.pem'],
    key: [undefined, 'k.pem'],
    proxy: [undefined, 'http://proxy.local:3128', 'https:http://p:1', 'not a url'],
    http2: [undefined, true],
    auth: [undefined, 'ann:secret:x', 'nopassword', 'abc.def', ''],
    authType: [undefined, 'Digest', 'bearer', 'BASIC', 'ntlm'],
    ignoreStdin: [undefined, true],
    deps: [undefined, true, false],
    mask: [undefined, false],
    scripts: [undefined, false],
    env: [undefined, 'dev'],
    var: [undefined, [], ['host=localhost:3000', 'empty='], ['novalue'], ['=x'], [' a =1']],
    dialect: [undefined, 'httpyac'],
  };
  const flagsArbitrary = fc.record(
    Object.fromEntries(Object.entries(values).map(([name, choices]) => [name, fc.constantFrom(...choices)])),
    { requiredKeys: [] },
  );

  it('gives what the schema gives, and leaves to the schema every flag set it refuses', () => {
    fc.assert(
      fc.property(flagsArbitrary, (flags) => {
        const quick = quickSendOptions(flags);
        let checked: unknown;
        let refused: unknown;
        try {
          checked = sendOptions(flags);
        } catch (error) {
          refused = error;
        }
        if (refused) expect(quick).toBeUndefined();
        else expect(quick).toEqual(checked);
      }),
      { numRuns: 3000 },
    );
  });

  it('answers a plain send and the common flags itself', () => {
    expect(quickSendOptions({})).toEqual(sendOptions({}));
    expect(quickSendOptions({ var: ['a=1'], timeout: '2s', print: 'hb', follow: true })).toEqual(
      sendOptions({ var: ['a=1'], timeout: '2s', print: 'hb', follow: true }),
    );
  });
});

describe('dial run options', () => {
  it('turns flags into typed values with the defaults Commander leaves out', () => {
    const options = runOptions({
      concurrency: '4',
      retry: '0',
      var: ['a=1'],
      cert: 'c.pem',
      key: 'k.pem',
      insecure: true,
    });
    expect(options).toMatchObject({
      concurrency: 4,
      retry: 0,
      cliVariables: { a: '1' },
      tags: [],
      reporters: [],
      scripts: true,
      follow: true,
      tls: { verify: false, certFile: 'c.pem', keyFile: 'k.pem' },
    });
  });

  it('rejects a concurrency under 1 and a bad --var', () => {
    expect(usageError(() => runOptions({ concurrency: '0' })).message).toBe(
      "--concurrency takes a whole number from 1, got '0'",
    );
    expect(usageError(() => runOptions({ retry: '-1' })).message).toBe("--retry takes a whole number, got '-1'");
    expect(usageError(() => runOptions({ var: ['novalue'] })).message).toBe("--var 'novalue' is not NAME=VALUE");
  });
});

describe('the shared --var parser', () => {
  it('keeps everything after the first = and names the bad pair', () => {
    expect(parseVariables(['url=http://x/?a=b'])).toEqual({ url: 'http://x/?a=b' });
    const error = usageError(() => parseVariables(['=x']));
    expect([error.message, error.hint]).toEqual(["--var '=x' is not NAME=VALUE", 'e.g. --var host=localhost:3000']);
  });
});

describe("dial run's quick check (no zod on a plain run)", () => {
  const values: Record<string, unknown[]> = {
    env: [undefined, 'ci', '', 3],
    var: [undefined, [], ['host=localhost:3000', 'empty='], ['novalue'], ['=x'], [' a =1'], ['a=1', 'a=2'], [1]],
    envFile: [undefined, '.env'],
    grep: [undefined, '/log/i'],
    name: [undefined, 'login'],
    tag: [undefined, [], ['smoke', 'a,b'], 'smoke'],
    concurrency: [undefined, '8', ' 2 ', '0', '-1', '1.5', 'many', '', '99999999999999999999', 8],
    retry: [undefined, '0', '3', '-1', 'x', ' 1'],
    retryDelay: [undefined, '0', '1s', 'soon'],
    timeout: [undefined, '5s', 'later'],
    bail: [undefined, true, 'yes'],
    shard: [undefined, '1/3', 'x'],
    reporter: [undefined, [], ['json:r.json', 'pretty'], ['nope'], 'json'],
    updateSnapshots: [undefined, true],
    watch: [undefined, true],
    scripts: [undefined, true, false, 'no'],
    outputFailed: [undefined, true],
    follow: [undefined, true, false],
    cookieJar: [undefined, true, false, 'jar.txt', 1],
    insecure: [undefined, true, 1],
    cacert: [undefined, 'ca.pem'],
    cert: [undefined, 'c.pem', ''],
    key: [undefined, 'k.pem', ''],
    proxy: [undefined, 'http://p:3128'],
    dialect: [undefined, 'httpyac'],
  };
  const flagsArbitrary = fc.record(
    Object.fromEntries(Object.entries(values).map(([name, choices]) => [name, fc.constantFrom(...choices)])),
    { requiredKeys: [] },
  );

  it('gives what the schema gives, and leaves to the schema every flag set it refuses', () => {
    let answered = 0;
    fc.assert(
      fc.property(flagsArbitrary, (flags) => {
        const quick = quickRunOptions(flags);
        let checked: unknown;
        let refused: unknown;
        try {
          checked = runOptions(flags);
        } catch (error) {
          refused = error;
        }
        if (refused) expect(quick).toBeUndefined();
        else if (quick !== undefined) {
          answered++;
          expect(quick).toStrictEqual(checked);
        }
      }),
      { numRuns: 3000 },
    );
    // About 1 generated set in 30 is one the quick check answers (~100 of 3,000, sd ~10): enough
    // comparisons that a wrong answer cannot hide, and no flaky bound.
    expect(answered).toBeGreaterThan(50);
  });

  it('answers a plain run and the common flags itself', () => {
    const defaults = { var: [], tag: [], retryDelay: '0', reporter: [], scripts: true, follow: true };
    expect(quickRunOptions(defaults)).toStrictEqual(runOptions(defaults));
    const bench = { ...defaults, reporter: ['json:report.json'], concurrency: '1' };
    expect(quickRunOptions(bench)).toStrictEqual(runOptions(bench));
    const more = { ...defaults, var: ['a=1'], tag: ['smoke'], retry: '2', cert: 'c.pem', key: 'k.pem', cookieJar: 'j' };
    expect(quickRunOptions(more)).toStrictEqual(runOptions(more));
  });
});

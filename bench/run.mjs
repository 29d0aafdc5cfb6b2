// `npm run bench`: measures the performance budgets (docs/performance.md) and prints a
// markdown table. Every row is a ratio against a baseline run in this same session (`node -e 0`,
// a bare node:http GET script, a bare undici loop, …).
// NODE_EXTRA_CA_CERTS is unset for both sides: on these machines it adds ~95 ms to each start.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const dial = join(root, 'bin/dial.js');
const work = mkdtempSync(join(tmpdir(), 'dial-bench-'));
const env = { ...process.env, DIAL_CONFIG_DIR: join(work, 'config'), NO_COLOR: '1' };
delete env.NODE_EXTRA_CA_CERTS;
delete env.FORCE_COLOR;
const quick = process.argv.includes('--quick');
const runsFor = (n) => (quick ? Math.max(3, Math.ceil(n / 4)) : n);

/** Runs a command to completion; resolves with wall time (ms) and, when asked, peak RSS (bytes). */
function timed(command, args, { rss = false, stdout = 'ignore', cwd = work } = {}) {
  const rssFile = join(work, `rss-${Math.random().toString(36).slice(2)}`);
  const childEnv = rss
    ? { ...env, DIAL_BENCH_RSS_FILE: rssFile, NODE_OPTIONS: `--require ${join(root, 'bench/peak-rss.cjs')}` }
    : env;
  return new Promise((resolvePromise, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(command, args, { env: childEnv, cwd, stdio: ['ignore', stdout, 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (code !== 0) return reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr.slice(0, 500)}`));
      const [peak, youngGeneration] =
        rss && existsSync(rssFile) ? readFileSync(rssFile, 'utf8').split(' ').map(Number) : [];
      resolvePromise({ ms, rss: peak, youngGeneration });
    });
  });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Alternates baseline and subject runs (after a warm-up of each) and compares medians. */
async function compare(baseline, subject, runs) {
  await timed(...baseline);
  await timed(...subject);
  const base = [];
  const dut = [];
  for (let i = 0; i < runs; i++) {
    base.push((await timed(...baseline)).ms);
    dut.push((await timed(...subject)).ms);
  }
  return { baseline: median(base), subject: median(dut) };
}

const rows = [];
const fmtMs = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);
const fmtMiB = (bytes) => `${(bytes / 1048576).toFixed(1)} MiB`;
function ratioRow(name, result, budget, baselineName) {
  const ratio = result.subject / result.baseline;
  rows.push([
    name,
    fmtMs(result.subject),
    `${fmtMs(result.baseline)} (${baselineName})`,
    `${ratio.toFixed(2)}×`,
    `≤ ${budget}×`,
    ratio <= budget ? 'within' : 'OVER',
  ]);
}
function notMeasured(name, why) {
  rows.push([name, '—', '—', '—', '—', `not measured: ${why}`]);
}

async function startServer() {
  const child = spawn(process.execPath, [join(root, 'bench/server.mjs')], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise((res) => child.stdout.once('data', (d) => res(Number(String(d).trim()))));
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

const server = await startServer();
try {
  const node0 = [process.execPath, ['-e', '0']];
  const startRuns = runsFor(40);

  ratioRow(
    'start-up: `dial --version`',
    await compare(node0, [process.execPath, [dial, '--version']], startRuns),
    1.05,
    '`node -e 0`',
  );

  {
    const offline = await compare(
      node0,
      [process.execPath, [dial, 'send', '--offline', `${server.url}/json`]],
      startRuns,
    );
    rows.push([
      'start-up: `dial send --offline URL`',
      fmtMs(offline.subject),
      `${fmtMs(offline.baseline)} (\`node -e 0\`)`,
      `${(offline.subject / offline.baseline).toFixed(2)}×`,
      '—',
      'reported',
    ]);
    // The floor of the send row: the smallest Node script that makes the same GET (bench/bare-get.cjs).
    const bareGet = [process.execPath, [join(root, 'bench/bare-get.cjs'), `${server.url}/json`]];
    ratioRow(
      'start-up: `dial send URL` (loopback)',
      await compare(bareGet, [process.execPath, [dial, 'send', `${server.url}/json`]], startRuns),
      1.25,
      'bare `node:http` GET script',
    );
    const floor = await compare(node0, bareGet, startRuns);
    rows.push([
      'reference: bare `node:http` GET script, CommonJS (no dial)',
      fmtMs(floor.subject),
      `${fmtMs(floor.baseline)} (\`node -e 0\`)`,
      `${(floor.subject / floor.baseline).toFixed(2)}×`,
      '—',
      'the floor the send row is measured against',
    ]);
    const gib = 1024 ** 3;
    const big = await timed(process.execPath, [dial, 'send', `${server.url}/bytes/${gib}`], {
      rss: true,
      stdout: 'ignore',
    });
    const baseline = await timed(process.execPath, ['-e', '0'], { rss: true });
    rows.push([
      'memory: `dial send` 1 GiB to /dev/null, peak RSS',
      fmtMiB(big.rss),
      `${fmtMiB(baseline.rss)} (\`node -e 0\`)`,
      `${(big.rss / baseline.rss).toFixed(2)}×`,
      '< 150 MiB',
      big.rss < 150 * 1048576 ? 'within' : 'OVER',
    ]);
    rows.push([
      'throughput: `dial send` 1 GiB to /dev/null, time',
      fmtMs(big.ms),
      '—',
      '—',
      '—',
      `${(gib / 1048576 / (big.ms / 1000)).toFixed(0)} MiB/s`,
    ]);
  }

  // Parsing: in-process, against splitting the same text into lines (the least any parser must do).
  if (existsSync(join(root, 'src/core/httpfile/index.ts'))) {
    const entry = join(work, 'parse-bench.mjs');
    await build({
      entryPoints: [join(root, 'src/core/httpfile/index.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: entry,
      logLevel: 'error',
    });
    const { parseHttpFile } = await import(entry);
    const blocks = [];
    for (let i = 0; i < 10_000; i++) {
      blocks.push(
        `### request ${i}\n# @name r${i}\n# @tag smoke\nPOST {{host}}/widgets/${i}?page=1\nContent-Type: application/json\nAuthorization: Bearer {{token}}\n\n{"id": ${i}, "name": "w${i}"}\n\n?? status == 200\n?? body $.id == ${i}\n`,
      );
    }
    const text = blocks.join('\n');
    const best = (fn) => {
      let min = Infinity;
      for (let i = 0; i < (quick ? 3 : 10); i++) {
        const t = performance.now();
        fn();
        min = Math.min(min, performance.now() - t);
      }
      return min;
    };
    const parsed = parseHttpFile(text, join(work, 'big.http'));
    if (parsed.requests.length !== 10_000)
      throw new Error(`parser found ${parsed.requests.length} requests, expected 10000`);
    const parseMs = best(() => parseHttpFile(text, join(work, 'big.http')));
    const splitMs = best(() => text.split('\n').map((line) => line.trimEnd()));
    rows.push([
      'parse a 10,000-request file',
      `${fmtMs(parseMs)} (${((parseMs * 1000) / 10_000).toFixed(1)} µs/request)`,
      `${fmtMs(splitMs)} (split into lines)`,
      `${(parseMs / splitMs).toFixed(1)}×`,
      '—',
      'reported',
    ]);
  } else notMeasured('parse a 10,000-request file', 'parser not present');

  // dial run: 500 sequential requests with two assertions each, against a bare undici loop.
  {
    const runDir = join(work, 'run');
    mkdirSync(runDir, { recursive: true });
    const block = (i) => `### r${i}\nGET ${server.url}/json\n\n?? status == 200\n?? body $.id == 42\n`;
    writeFileSync(join(runDir, 'seq.http'), Array.from({ length: 500 }, (_, i) => block(i)).join('\n'));
    const manyDir = join(runDir, 'many');
    mkdirSync(manyDir, { recursive: true });
    for (let f = 0; f < 50; f++)
      writeFileSync(join(manyDir, `f${f}.http`), Array.from({ length: 100 }, (_, i) => block(i)).join('\n'));
    // Memory: the same shape (50-request files, 8 at once) at 500, 5,000 and 50,000 requests.
    const memoryDir = (requests) => {
      const dir = join(runDir, `memory-${requests}`);
      mkdirSync(dir, { recursive: true });
      for (let f = 0; f < requests / 50; f++)
        writeFileSync(join(dir, `f${f}.http`), Array.from({ length: 50 }, (_, i) => block(i)).join('\n'));
      return dir;
    };
    const runArgs = (target, extra = []) => [
      dial,
      'run',
      target,
      '--reporter',
      'json:' + join(work, 'report.json'),
      ...extra,
    ];
    const loop = (count, conc) => [
      process.execPath,
      [join(root, 'bench/undici-loop.mjs'), `${server.url}/json`, String(count), String(conc)],
    ];
    ratioRow(
      '`dial run` 500 sequential requests, 2 assertions each',
      await compare(
        loop(500, 1),
        [process.execPath, runArgs(join(runDir, 'seq.http'), ['--concurrency', '1'])],
        runsFor(8),
      ),
      1.1,
      'bare undici loop',
    );
    // Nine pairs: the undici loop at 8 at once spreads by a third from run to run on these machines.
    const many = await compare(loop(5000, 8), [process.execPath, runArgs(manyDir, ['--concurrency', '8'])], runsFor(9));
    ratioRow('`dial run` 5,000 requests in 50 files, `--concurrency 8`', many, 1.3, 'undici loop, 8 at once');
    rows[rows.length - 1][5] += `; ${Math.round(5000 / (many.subject / 1000))} req/s`;
    // Where the floor lies: the same 5,000 GETs and checks over bare sockets (bench/socket-loop.cjs).
    const sockets = await compare(
      loop(5000, 8),
      [process.execPath, [join(root, 'bench/socket-loop.cjs'), `${server.url}/json`, '5000', '8']],
      runsFor(5),
    );
    rows.push([
      'reference: the same 5,000 GETs, 8 at once, over bare sockets (no HTTP library, no dial)',
      fmtMs(sockets.subject),
      `${fmtMs(sockets.baseline)} (undici loop, 8 at once)`,
      `${(sockets.subject / sockets.baseline).toFixed(2)}×`,
      '—',
      'below the baseline: the concurrency budget is not at the floor',
    ]);
    // Peak RSS must not grow with the number of requests, with two reporters writing files
    // (they stream: src/core/report/streaming.ts). The verdict cell shows the young generation's
    // size too: `dial run` lets it grow to 8 MiB and holds it there, and where V8 refuses that,
    // it grows to 32 MiB under load, so heap sizing is not mistaken for retained data.
    const peakRss = (requests) =>
      timed(
        process.execPath,
        [
          dial,
          'run',
          memoryDir(requests),
          '--reporter',
          'dot:' + join(work, 'dots.txt'),
          '--reporter',
          'junit:' + join(work, 'junit.xml'),
          '--reporter',
          'json:' + join(work, 'report.json'),
          '--concurrency',
          '8',
        ],
        { rss: true },
      );
    const counts = quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000];
    const rss = {};
    for (const count of counts) {
      rss[count] = await peakRss(count);
      rmSync(join(runDir, `memory-${count}`), { recursive: true, force: true });
    }
    const largest = counts[counts.length - 1];
    rows.push([
      `\`dial run\` ${largest.toLocaleString('en')} requests, json + junit reports, peak RSS`,
      fmtMiB(rss[largest].rss),
      '—',
      '—',
      '< 150 MiB',
      `${rss[largest].rss < 150 * 1048576 ? 'within' : 'OVER'}; ${fmtMs(rss[largest].ms)}, ${Math.round(largest / (rss[largest].ms / 1000))} req/s`,
    ]);
    for (let k = 1; k < counts.length; k++) {
      const [small, large] = [counts[k - 1], counts[k]];
      const ratio = rss[large].rss / rss[small].rss;
      const young = `young generation ${fmtMiB(rss[small].youngGeneration)} → ${fmtMiB(rss[large].youngGeneration)}`;
      rows.push([
        `\`dial run\` peak RSS: ${small.toLocaleString('en')} vs ${large.toLocaleString('en')} requests (json + junit)`,
        `${fmtMiB(rss[large].rss)} (${large.toLocaleString('en')})`,
        `${fmtMiB(rss[small].rss)} (${small.toLocaleString('en')})`,
        `${ratio.toFixed(2)}×`,
        'flat (< 1.25×)',
        `${ratio < 1.25 ? 'within' : 'GROWS'}; ${young}`,
      ]);
    }
    if (quick) notMeasured('`dial run` peak RSS at 1,000,000 requests', '--quick');
  }

  if (existsSync(join(root, 'bench/tui.mjs'))) {
    const { benchTui } = await import('./tui.mjs');
    rows.push(...(await benchTui({ root, dial, env, work, quick, timed, compare, median })));
  } else notMeasured('TUI first frame and scrolling', 'TUI bench not present');
} finally {
  server.stop();
}

const header = ['benchmark', 'dial', 'baseline (same session)', 'ratio', 'budget', 'verdict'];
const lines = [
  `| ${header.join(' | ')} |`,
  `| ${header.map(() => '---').join(' | ')} |`,
  ...rows.map((r) => `| ${r.join(' | ')} |`),
];
process.stdout.write(
  `\n${lines.join('\n')}\n\nnode ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}); NODE_EXTRA_CA_CERTS unset for both sides${quick ? '; --quick (fewer runs)' : ''}.\n`,
);
rmSync(work, { recursive: true, force: true });

// TUI rows of `npm run bench`: time to the first frame of the real binary in a pseudo-terminal
// (util-linux `script`), against `node -e` printing one line through the same wrapper; and
// key-press-to-frame while scrolling a 100 MiB JSON response, with the process's peak RSS.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

/** Spawns a command in a pty and resolves with the ms until `marker` appears on its output. */
function timeToOutput(command, marker, env) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      env: { ...env, TERM: 'xterm-256color', COLUMNS: '120', LINES: '40' },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let seen = '';
    let done = false;
    const timer = setTimeout(() => finish(new Error(`no '${marker}' within 20 s from: ${command}`)), 20_000);
    function finish(error, ms) {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.kill('SIGTERM');
      error ? reject(error) : resolve(ms);
    }
    child.stdout.on('data', (data) => {
      // Strip escapes so the marker is found in the visible text.
      seen += String(data).replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, '');
      if (seen.includes(marker)) finish(undefined, Number(process.hrtime.bigint() - start) / 1e6);
    });
    child.on('error', (error) => finish(error));
  });
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

export async function benchTui({ root, dial, env, work, quick, timed, median }) {
  const rows = [];
  const workspace = join(work, 'tui-ws');
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, 'api.http'), '### list widgets\nGET http://127.0.0.1:1/widgets\n');
  const runs = quick ? 3 : 10;
  const node = process.execPath;
  const baselineCommand = `${node} -e "process.stdout.write('dial-bench-ready')"`;
  const dialCommand = `${node} ${dial} open ${workspace}`;
  await timeToOutput(baselineCommand, 'dial-bench-ready', env);
  await timeToOutput(dialCommand, 'list widgets', env);
  const base = [];
  const tui = [];
  for (let i = 0; i < runs; i++) {
    base.push(await timeToOutput(baselineCommand, 'dial-bench-ready', env));
    tui.push(await timeToOutput(dialCommand, 'list widgets', env));
  }
  const ratio = median(tui) / median(base);
  rows.push([
    'TUI: time to first frame (`dial open`, in a pty)',
    `${median(tui).toFixed(1)} ms`,
    `${median(base).toFixed(1)} ms (\`node -e\` printing a line, same pty)`,
    `${ratio.toFixed(2)}×`,
    '≤ 3×',
    ratio <= 3 ? 'within' : 'OVER',
  ]);

  // Scrolling a 100 MiB JSON response: the viewer's real path (line model, reducer, React, Ink
  // layout) in its own process, so its peak RSS is the viewer's alone.
  const harness = join(work, 'tui-harness');
  await build({
    entryPoints: { harness: join(root, 'src/ui/bench-harness.tsx') },
    outdir: harness,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    logLevel: 'error',
    external: ['react-devtools-core'],
    define: { 'process.env.NODE_ENV': '"production"' },
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  const script = join(harness, 'measure.mjs');
  // The body is written here and read by the harness the way the workbench reads a body that
  // spilled to a temp file (over 16 MiB, it always does), so the harness's peak RSS is the
  // viewer's and not that of the code that made the body.
  const bodyFile = join(work, 'tui-body.json');
  const item = (i) => ({
    id: i,
    name: 'widget ' + i,
    tags: ['alpha', 'beta'],
    price: i * 1.25,
    active: i % 2 === 0,
    owner: { id: i % 97, email: 'user' + i + '@example.com' },
  });
  const parts = [];
  let size = 2;
  for (let i = 0; size < 100 * 1048576; i++) {
    const text = JSON.stringify(item(i), null, 2);
    parts.push(text);
    size += text.length + 2;
  }
  writeFileSync(bodyFile, '[' + parts.join(',\n') + ']');
  parts.length = 0;
  writeFileSync(
    script,
    `
import { readFileSync } from 'node:fs';
import { measureViewer } from './harness.js';
const bodyText = readFileSync(${JSON.stringify(bodyFile)}, 'utf8');
const result = measureViewer({ bodyText, contentType: 'application/json', columns: 120, rows: 40, presses: ${quick ? 60 : 200} });
process.stdout.write(JSON.stringify({ ...result, bytes: bodyText.length }));
`,
  );
  const output = join(work, 'tui-measure.json');
  const result = await new Promise((resolve, reject) => {
    const child = spawn(node, ['--max-old-space-size=4096', script], {
      env: {
        ...env,
        DIAL_BENCH_RSS_FILE: join(work, 'tui-rss'),
        NODE_OPTIONS: `--require ${join(root, 'bench/peak-rss.cjs')}`,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    child.stdout.on('data', (d) => (text += d));
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(text)) : reject(new Error(`viewer harness exited ${code}`)),
    );
  });
  const { readFileSync } = await import('node:fs');
  const [rss] = readFileSync(join(work, 'tui-rss'), 'utf8').split(' ').map(Number);
  const p50 = percentile(result.keyMs, 50);
  const p95 = percentile(result.keyMs, 95);
  const mib = (result.bytes / 1048576).toFixed(0);
  rows.push([
    `TUI: key press → frame, scrolling a ${mib} MiB JSON body (p50 / p95)`,
    `${p50.toFixed(1)} / ${p95.toFixed(1)} ms`,
    `${result.keyMs.length} presses; model built once in ${(result.modelMs / 1000).toFixed(2)} s`,
    '—',
    '< 50 ms',
    p95 < 50 ? 'within' : 'OVER',
  ]);
  const rssRatio = rss / result.bytes;
  rows.push([
    `TUI: peak RSS viewing the ${mib} MiB body`,
    `${(rss / 1048576).toFixed(0)} MiB`,
    `${mib} MiB (the body); first frame ${(result.firstFrameMs / 1000).toFixed(2)} s after it arrived`,
    `${rssRatio.toFixed(2)}×`,
    '≤ 3× the body',
    rssRatio <= 3 ? 'within' : 'OVER',
  ]);
  void timed;
  return rows;
}

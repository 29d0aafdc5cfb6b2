// Builds dist/ with esbuild. Start-up time drives the layout:
//
//   dist/cli.cjs        the program: src/ without the UI, one CommonJS file. bin/dial.js compiles
//                       it with the V8 code cache below, which Node 20 cannot do for ES modules.
//   dist/cli.cjs.cache  that code cache, written by a warm-up run (scripts/code-cache-warm-up.cjs).
//   dist/send.cjs       the same program with `send` as its only command (src/cli-send.ts), and
//   dist/send.cjs.cache its cache: bin/dial.js runs it for `dial send`, which then reads and
//                       compiles a third less (bench/HISTORY.md).
//   dist/send-url.cjs   `dial send` once more, without what only a .http target or an unusual command
//   dist/send-url.cjs.cache  line needs (see handOverPlugin): bin/dial.js runs it for a `dial send`
//                       that names no .http file, and it hands anything else over to dist/send.cjs.
//   dist/run.cjs        the program with `run` as its only command (src/cli-run.ts), and its cache,
//   dist/run.cjs.cache  made by a `dial run`: without it a run compiled most of what it ran at each
//                       start (dist/cli.cjs's cache comes from a `dial list`).
//   dist/ui.cjs         the workbench (React, Ink, the UI), which only `dial open` loads, the same
//   dist/ui.cjs.cache   way and with a code cache of its own, made by drawing one first frame.
//   dist/lib/*.cjs      the heavy libraries, one file each, required on first use, so a command
//                       that does not use YAML or JSON Schema never reads them. All the bundles use them.
//
// Every bundle is minified, names shortened, which keeps the installed package under 10 MB
// (tests/package/pack.test.ts) with a program per command that has a start-up budget. Nothing
// reads a function's or class's name (errors set their own `name`), so esbuild's keepNames is not
// used: it cost ~9% of each bundle and its cache, and time on dial run's per-request path. A
// stack trace names minified functions; its line and column point into the minified file.
//
// The UI bundle carries its own copy of the core modules it uses. That is safe because the two
// copies never share state: `dial open` hands the UI plain options and gets back an exit code,
// or an error that src/start.ts recognises by its name (isDialError), not by its class.
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { uiSimpleTextPlugin, uiWithoutTopLevelAwaitPlugin } from './ui-shims/plugin.mjs';

const root = new URL('..', import.meta.url).pathname;
process.chdir(root);

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
// import.meta.url: the bundles are CommonJS, where code finds its file through __filename
// (src/core/script/lua-engine.ts reads import.meta only when running from the sources).
const define = {
  'process.env.NODE_ENV': '"production"',
  __DIAL_VERSION__: JSON.stringify(version),
  'import.meta.url': 'undefined',
};
const common = {
  absWorkingDir: root,
  bundle: true,
  metafile: true,
  charset: 'ascii',
  platform: 'node',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
  define,
};

// How each library's file exports it. The program's `await import('x')` becomes
// `__toESM(require('./lib/x.cjs'), 1)`, which, as Node does for a CommonJS module, takes
// module.exports as the default export. So conf, an ES module whose default export is the class,
// exports that class; the CommonJS libraries export what they always have.
const libraries = {
  undici: "module.exports = require('undici');",
  yaml: "module.exports = require('yaml');",
  ajv: "module.exports = require('ajv');",
  'jsonpath-plus': "module.exports = require('jsonpath-plus');",
  // XPath over XML bodies (REST Client references, httpyac `?? xpath`).
  xpath: "module.exports = require('xpath');",
  '@xmldom/xmldom': "module.exports = require('@xmldom/xmldom');",
  '@apidevtools/swagger-parser': "module.exports = require('@apidevtools/swagger-parser');",
  conf: "module.exports = require('conf').default;",
  // Server-sent events (core/http/sse.ts), loaded on the first text/event-stream response.
  'eventsource-parser': "module.exports = require('eventsource-parser');",
  // WebSocket client (src/core/http/websocket) and the echo server's WebSocket endpoints.
  ws: "module.exports = require('ws');",
  // The script sandbox (QuickJS in WebAssembly), loaded on the first script only.
  'quickjs-emscripten-core': "module.exports = require('quickjs-emscripten-core');",
  '@jitl/quickjs-singlefile-cjs-release-sync': "module.exports = require('@jitl/quickjs-singlefile-cjs-release-sync');",
  // kulala's Lua scripts (Lua 5.4 in WebAssembly), loaded by the worker thread of a Lua script
  // only (src/core/script/lua-engine.ts); its WebAssembly file is copied next to it, below.
  wasmoon: "module.exports = require('wasmoon');",
  // gRPC requests only. protobufjs comes with its descriptor extension (Root.fromDescriptor) loaded.
  '@grpc/grpc-js': "module.exports = require('@grpc/grpc-js');",
  protobufjs: "require('protobufjs/ext/descriptor'); module.exports = require('protobufjs');",
};
const libraryFile = (name) => `lib/${name.split('/').pop()}`;

/** The bundles require the libraries from dist/lib instead of carrying them, but for those in `carried`. */
const librariesFromDist = (carried = []) => ({
  name: 'dial-libraries-from-dist',
  setup(pluginBuild) {
    const names = Object.keys(libraries)
      .filter((name) => !carried.includes(name))
      .map((name) => name.replace(/[/@.-]/g, '\\$&'));
    pluginBuild.onResolve({ filter: new RegExp(`^(${names.join('|')})$`) }, (args) => ({
      path: `./${libraryFile(args.path)}.cjs`,
      external: true,
    }));
  },
});

/** The program starts the workbench through the seam in src/commands/ui-modules.ts. */
const programPlugin = {
  name: 'dial-program',
  setup(pluginBuild) {
    // Commander requires node:child_process (~3 ms) at load, for executable subcommands, which
    // dial does not have: hand it a stand-in that loads the real module only if it is used.
    pluginBuild.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /node_modules\/commander\//.test(args.importer)
        ? { path: 'child_process', namespace: 'dial-lazy-builtin' }
        : undefined,
    );
    pluginBuild.onLoad({ filter: /.*/, namespace: 'dial-lazy-builtin' }, () => ({
      loader: 'js',
      contents: "module.exports = new Proxy({}, { get: (_, key) => require('node:child_process')[key] });",
    }));
    pluginBuild.onLoad({ filter: /src\/commands\/ui-modules\.ts$/ }, () => ({
      loader: 'js',
      // `__dialRunBundle` is a parameter of the wrapper bin/dial.js compiles the program in.
      contents: "export const importWorkbench = () => Promise.resolve().then(() => __dialRunBundle('ui.cjs'));",
    }));
  },
};

/**
 * dist/send-url.cjs: the modules a URL send never loads are replaced by one that throws HandOver
 * when loaded (src/commands/send/hand-over.ts). Each is loaded by an `import()` reached before the
 * command reads or writes anything: a .http target's (file-target.ts and send-target.ts, with the
 * parser, sessions, variables, scripts and OAuth behind them), and zod's wording of flags that are
 * not plainly valid (options.ts). The program then hands the command line over to dist/send.cjs.
 */
const handedOver = [
  'src/commands/send/file-target.ts',
  'src/core/workspace/send-target.ts',
  'src/commands/send/options.ts',
];
const handOverPlugin = {
  name: 'dial-hand-over',
  setup(pluginBuild) {
    const filter = new RegExp(`/(${handedOver.map((path) => path.replace(/[/.]/g, '\\$&')).join('|')})$`);
    pluginBuild.onLoad({ filter }, () => ({
      loader: 'js',
      resolveDir: join(root, 'src/commands/send'),
      contents: "import { HandOver } from './hand-over.ts'; throw new HandOver();",
    }));
  },
};

/** Each library as a virtual entry point holding the line above. */
const libraryEntriesPlugin = {
  name: 'dial-library-entries',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^dial-library:/ }, (args) => ({
      path: args.path.slice('dial-library:'.length),
      namespace: 'dial-library',
    }));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'dial-library' }, (args) => ({
      contents: libraries[args.path],
      loader: 'js',
      resolveDir: root,
    }));
  },
};

/**
 * grpc-js requires @grpc/proto-loader (and a second protobufjs with it) only to serve channelz
 * and ORCA, from .proto files of its own that dist/ does not carry: a client never does. A
 * stand-in that says so keeps ~130 KB out of dist/lib/grpc-js.cjs.
 */
const grpcWithoutProtoLoaderPlugin = {
  name: 'dial-grpc-without-proto-loader',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^@grpc\/proto-loader$/ }, (args) =>
      /node_modules\/@grpc\/grpc-js\//.test(args.importer)
        ? { path: 'proto-loader', namespace: 'dial-stub' }
        : undefined,
    );
    pluginBuild.onLoad({ filter: /.*/, namespace: 'dial-stub' }, () => ({
      loader: 'js',
      contents: "exports.loadSync = () => { throw new Error('channelz and ORCA are not bundled with dial'); };",
    }));
  },
};

/**
 * The licence notices of the third-party packages bundled into dist/, one section per package,
 * found from the bundles' inputs (esbuild's metafile): the published package has no
 * node_modules, so their notices must travel inside dist/.
 */
function thirdPartyNotices(inputs) {
  const packageDirs = new Set();
  for (const input of inputs) {
    // A plugin's namespace may prefix the path (`dial-string-width:/…/node_modules/string-width/index.js`).
    const match = /^(?:[\w-]+:(?=\/))?(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) packageDirs.add(match[1]);
  }
  const sections = [...packageDirs].map((dir) => {
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const licenceFiles = readdirSync(dir)
      .filter((name) => /^(licen[cs]e|copying|notice)/i.test(name))
      .sort();
    const texts = licenceFiles.map((name) => readFileSync(join(dir, name), 'utf8').trim());
    const licence =
      typeof manifest.license === 'string' ? manifest.license : (manifest.license?.type ?? 'see its package');
    const author = typeof manifest.author === 'string' ? manifest.author : manifest.author?.name;
    const source = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
    const origin = [author && `author ${author}`, source && `source ${source}`].filter(Boolean).join(', ');
    const missing = `(${manifest.name} ships no licence file; its package.json declares ${licence}${origin ? `; ${origin}` : ''})`;
    const body = texts.length > 0 ? texts.join('\n\n') : missing;
    return {
      key: `${manifest.name}@${manifest.version}`,
      title: `${manifest.name} ${manifest.version} (${licence})`,
      body,
    };
  });
  const unique = [...new Map(sections.map((section) => [section.key, section])).values()].sort((a, b) =>
    a.key.localeCompare(b.key),
  );
  // A text word for word the same as an earlier package's (one Apache-2.0 file, the same
  // authors' MIT notice) is written once and pointed to, which keeps the package under 10 MB.
  const firstWithBody = new Map();
  const texts = unique.map((section) => {
    const first = firstWithBody.get(section.body);
    if (!first) firstWithBody.set(section.body, section.title);
    return `${section.title}\n\n${first ? `The same licence text as ${first}, above.` : section.body}\n`;
  });
  const header = `dial-http bundles the following packages into dist/. Their licence notices follow.\n`;
  return [header, ...texts].join(`\n${'-'.repeat(78)}\n\n`);
}

/**
 * QuickJS's single-file build carries its WebAssembly inside the JavaScript, as a string literal
 * of escaped bytes that its loader turns into a Uint8Array one character a byte: ~820 KB of text
 * for ~500 KB of bytes. The bytes go to a file of their own beside it, and the literal becomes a
 * read of that file as latin1, one character a byte again, so the loader is unchanged: ~300 KB
 * less in the package (tests/package/pack.test.ts keeps it under 10 MB). A QuickJS release that
 * stores its WebAssembly otherwise fails the build here rather than shipping the larger file.
 */
function splitQuickjsWasm(bundlePath, wasmPath) {
  const text = readFileSync(bundlePath, 'utf8');
  const start = text.indexOf('`\\0asm');
  if (start < 0 || text.indexOf('`\\0asm', start + 1) >= 0)
    throw new Error(`build: QuickJS's WebAssembly literal not found once in ${bundlePath}`);
  let end = start + 1;
  while (end < text.length && text[end] !== '`') {
    if (text[end] === '$' && text[end + 1] === '{') throw new Error('build: an interpolation in the QuickJS literal');
    end += text[end] === '\\' ? 2 : 1;
  }
  const bytes = new Function(`return ${text.slice(start, end + 1)}`)();
  if (!bytes.startsWith('\0asm') || /[^\0-\xff]/.test(bytes))
    throw new Error("build: QuickJS's literal is not WebAssembly bytes");
  writeFileSync(wasmPath, Buffer.from(bytes, 'latin1'));
  const read = `require("node:fs").readFileSync(require("node:path").join(__dirname,${JSON.stringify(basename(wasmPath))}),"latin1")`;
  writeFileSync(bundlePath, text.slice(0, start) + read + text.slice(end + 1));
}

// Build into a fresh folder and swap it in, so a concurrent build or a running `dial`
// never sees an empty or half-written dist/.
const outdir = `dist.tmp-${process.pid}`;
rmSync(outdir, { recursive: true, force: true });

const builds = await Promise.all([
  build({
    ...common,
    // Programs, each one whole CommonJS file (esbuild splits only ES modules): they never run in
    // the same process, so each carries its own copy of the modules they share (dist/run.cjs and
    // dist/send-url.cjs below too).
    entryPoints: { cli: 'src/cli.ts', send: 'src/cli-send.ts' },
    outdir,
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    // Minified, names shortened (as all program bundles are): nothing in the program reads a
    // function's or class's name (each Error subclass sets its own `name`), and esbuild's
    // keepNames cost ~9% of a bundle and of its code cache, room the package's 10 MB needed. An
    // internal error's stack trace names minified functions; its line and column still point
    // into the file.
    minify: true,
    // Every import() becomes a require(): node:vm code has no import().
    supported: { 'dynamic-import': false },
    plugins: [librariesFromDist(), programPlugin],
  }),
  build({
    ...common,
    entryPoints: { run: 'src/cli-run.ts' },
    outdir,
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    // Not keepNames: it names each function expression with a call where it is created, and on a
    // run's per-request path that cost ~25 M instructions over 500 requests (bench/HISTORY.md).
    // Identifiers are shortened (232 KB less with the cache, which keeps the package under 10 MB),
    // so an internal error's stack trace from `dial run` names minified functions; nothing in the
    // program reads a function's or class's name (DialError sets its own).
    minify: true,
    supported: { 'dynamic-import': false },
    plugins: [librariesFromDist(), programPlugin],
  }),
  build({
    ...common,
    entryPoints: { 'send-url': 'src/cli-send-url.ts' },
    outdir,
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    minify: true,
    supported: { 'dynamic-import': false },
    plugins: [librariesFromDist(), programPlugin, handOverPlugin],
  }),
  build({
    ...common,
    entryPoints: Object.fromEntries(Object.keys(libraries).map((name) => [libraryFile(name), `dial-library:${name}`])),
    outdir,
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    // Third-party code, whose stack traces are not ours to read: minified, it keeps the
    // installed package under 10 MB (tests/package/pack.test.ts) and reads faster on first use.
    minify: true,
    plugins: [libraryEntriesPlugin, grpcWithoutProtoLoaderPlugin],
  }),
  build({
    ...common,
    entryPoints: { ui: 'src/ui/bundle-entry.ts' },
    outdir,
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    supported: { 'dynamic-import': false },
    // Minified, names shortened as in dist/run.cjs: nothing in the workbench reads a function's or
    // class's name (DialError sets its own), and keeping them cost 136 KB with the code cache,
    // room the package's 10 MB needed (the HTTP/1.1 client of December 2026). An internal error's
    // stack trace from `dial open` names minified functions.
    minify: true,
    // Ink imports react-devtools-core only when DEV is set; never bundle it.
    external: ['react-devtools-core'],
    // jsonpath-plus (25 KB) is carried: the viewer's JSONPath filter imports it at load, and
    // inside the bundle it is in the workbench's code cache.
    plugins: [librariesFromDist(['jsonpath-plus']), uiWithoutTopLevelAwaitPlugin, uiSimpleTextPlugin(root)],
  }),
]);

// wasmoon reads its WebAssembly file from the path lua-engine.ts gives it.
copyFileSync('node_modules/wasmoon/dist/glue.wasm', `${outdir}/lib/wasmoon.wasm`);
splitQuickjsWasm(`${outdir}/lib/quickjs-singlefile-cjs-release-sync.cjs`, `${outdir}/lib/quickjs.wasm`);

// Lua itself (MIT, Lua.org) is compiled into wasmoon's WebAssembly file: its notice goes with it,
// the permission text being the MIT text wasmoon's own licence carries.
const mitText = readFileSync('node_modules/wasmoon/LICENSE', 'utf8')
  .replace(/^[\s\S]*?(?=Permission is hereby granted)/, '')
  .trim();
const luaNotice = `Lua 5.4 (MIT), compiled into dist/lib/wasmoon.wasm\n\nCopyright (C) 1994-2023 Lua.org, PUC-Rio.\n\n${mitText}\n`;
writeFileSync(
  `${outdir}/THIRD-PARTY-LICENSES.txt`,
  `${thirdPartyNotices(builds.flatMap((result) => Object.keys(result.metafile.inputs)))}\n${'-'.repeat(78)}\n\n${luaNotice}`,
);

// esbuild writes strings ASCII-only but keeps comments as written. One non-ASCII character
// would make V8 hold a whole bundle as a two-byte string; escape the ones left in comments.
// Each file holds its bundle already inside the function bin/dial.js calls (CommonJS's wrapper
// plus __dialRunBundle), so it compiles the text as read: wrapping it at start-up made a second
// 1 MB string (~2 M instructions, 1% of a `dial send`).
const bundles = ['cli.cjs', 'send.cjs', 'send-url.cjs', 'run.cjs', 'ui.cjs'];
for (const name of bundles) {
  const bundle = `${outdir}/${name}`;
  const text = readFileSync(bundle, 'utf8').replace(
    /[^\0-\x7f]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  writeFileSync(bundle, `(function (exports, require, module, __filename, __dirname, __dialRunBundle) {${text}\n})`);
}

// The code caches: V8's compiled form of the functions that ran in a warm-up, so that they do not
// compile again at start-up. V8 checks a cache against its version and flags and compiles as
// usual when it does not match (another Node): slower, never wrong. Each bundle has its own, from
// a use it serves: dist/send-url.cjs a `dial send` to a loopback server, dist/send.cjs the same
// of a .http file's request; dist/cli.cjs (every other
// command) a `dial list` of a .http file, which most of them parse; dist/run.cjs a `dial run` of
// a .http file with assertions, reported by the default reporter and JSON (the run puts V8's flags
// back to their defaults before its cache is made: V8 refuses a cache made under other flags);
// dist/ui.cjs the workbench up to its first frame.
// The warm-ups run as on a user's machine: no proxy (the server is on loopback), and not "in CI",
// where Ink writes only the last frame, at exit (is-in-ci), so the workbench's first frame would
// never show.
const warmUpEnvironment = (env) =>
  Object.fromEntries(
    Object.entries(env).filter(
      ([name]) => !/^(http|https|all)_proxy$/i.test(name) && !/^(CI|CONTINUOUS_INTEGRATION|CI_.+)$/.test(name),
    ),
  );
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () =>
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"id":42,"warm":["up"]}'),
  );
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const configDir = mkdtempSync(join(tmpdir(), 'dial-build-'));
const warmUpFile = join(configDir, 'warm-up.http');
writeFileSync(
  warmUpFile,
  [
    '@host = http://127.0.0.1:1',
    '',
    '### login',
    '# @name login',
    'POST {{host}}/login',
    'Content-Type: application/json',
    '',
    '{"user": "ann"}',
    '',
    '### me',
    'GET {{host}}/me',
    'Authorization: Bearer {{login.response.body.$.token}}',
    '',
    '?? status == 200',
    '',
  ].join('\n'),
);
// dist/send.cjs serves the .http targets (dist/send-url.cjs hands them over): a request of a file.
const sendWarmUpFile = join(configDir, 'send-warm-up.http');
writeFileSync(
  sendWarmUpFile,
  [
    `@host = http://127.0.0.1:${server.address().port}`,
    '',
    '### warm-up',
    'POST {{host}}/warm-up',
    'Content-Type: application/json',
    '',
    '{"a": 1}',
    '',
    '?? status == 200',
    '',
  ].join('\n'),
);
// dist/run.cjs: the requests of a run as most files hold them (a GET, a POST with a JSON body,
// a named request's value used later), each with `??` assertions on the status and the body.
const runWarmUpFile = join(configDir, 'run-warm-up.http');
writeFileSync(
  runWarmUpFile,
  [
    `@host = http://127.0.0.1:${server.address().port}`,
    '',
    '### create',
    '# @name create',
    'POST {{host}}/items',
    'Content-Type: application/json',
    '',
    '{"name": "warm"}',
    '',
    '?? status == 200',
    '?? body $.id == 42',
    '',
    '### read',
    'GET {{host}}/items/{{create.response.body.$.id}}',
    '',
    '?? status == 200',
    '?? body $.warm[0] == up',
    '',
    '### list',
    'GET {{host}}/items',
    '',
    '?? status == 200',
    '?? body $.id == 42',
    '',
  ].join('\n'),
);
const warmUpCommands = {
  'send-url.cjs': ['-v', 'send', `http://127.0.0.1:${server.address().port}/warm-up`, 'a=1'],
  'send.cjs': ['send', '-v', `${sendWarmUpFile}#warm-up`],
  'cli.cjs': ['list', warmUpFile],
  'run.cjs': [
    'run',
    runWarmUpFile,
    '--reporter',
    'pretty',
    '--reporter',
    `json:${join(configDir, 'run-warm-up.json')}`,
  ],
};
const warmUp = (name) => {
  const child = spawn(process.execPath, ['scripts/code-cache-warm-up.cjs', ...(warmUpCommands[name] ?? [])], {
    env: {
      ...warmUpEnvironment(process.env),
      DIAL_WARM_UP_DIST: join(root, outdir),
      DIAL_WARM_UP_PROGRAM: name,
      DIAL_CONFIG_DIR: configDir,
      NO_COLOR: '1',
    },
    // stderr is shown only when the run fails: Ink's cursor handling writes an escape to it at exit.
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (chunk) => (errors += chunk));
  return new Promise((resolve) =>
    child.on('close', (status) => {
      if (status !== 0) process.stderr.write(errors);
      resolve(status);
    }),
  );
};
const statuses = await Promise.all(bundles.map(warmUp));
server.close();
rmSync(configDir, { recursive: true, force: true });
// dial runs without the caches, so this does not fail an install; tests/e2e/cli.test.ts does fail.
statuses.forEach((status, index) => {
  if (status !== 0)
    console.warn(
      `build: the warm-up run exited with ${status}; dist/${bundles[index]} has no code cache (dial starts slower)`,
    );
});

const previous = `dist.old-${process.pid}`;
try {
  renameSync('dist', previous);
} catch {
  // no previous build
}
renameSync(outdir, 'dist');
rmSync(previous, { recursive: true, force: true });

/** An in-memory WorkbenchServices for component tests: no network, no disk. */
import {
  parseHttpFile,
  removeRequestText,
  replaceRequestText,
  insertRequestText,
} from '../../src/core/httpfile/index.js';
import type { Exchange } from '../../src/core/http/types.js';
import type { HttpFile } from '../../src/core/httpfile/types.js';
import type {
  ExecuteOptions,
  HistoryItem,
  ResponseResult,
  WorkbenchServices,
  WorkspaceFileEntry,
} from '../../src/ui/services.js';

export interface FakeServices extends WorkbenchServices {
  calls: Array<{ name: string | undefined; environment?: string }>;
  saved: Map<string, string>;
  written: Map<string, string>;
  /** When set, execute waits for this before answering (to test spinners and cancel). */
  gate?: Promise<void>;
  remembered: Array<string | undefined>;
  body: string;
  historyItems: HistoryItem[];
  editorReply: string;
  rememberedRequests: string[];
}

export function exchangeWith(body: string, status = 200): Exchange {
  return {
    request: { method: 'GET', url: 'http://fake/anything', headers: [['Accept', '*/*']] },
    response: {
      status,
      statusText: status === 200 ? 'OK' : 'Error',
      httpVersion: '1.1',
      url: 'http://fake/anything',
      headers: [
        ['Content-Type', 'application/json'],
        ['X-Fake', 'yes'],
      ],
      body: { kind: 'memory', bytes: Buffer.from(body) },
      size: Buffer.byteLength(body),
    },
    timings: { dns: 1, connect: 2, tls: 0, firstByte: 5, total: 12 },
    redirects: [],
  };
}

export function fakeServices(
  files: Record<string, string>,
  body = JSON.stringify({ headers: { Host: 'fake', Accept: '*/*' }, args: { page: '1' }, items: [1, 2, 3] }),
): FakeServices {
  const entries: WorkspaceFileEntry[] = Object.entries(files).map(([name, text]) => ({
    path: `/ws/${name}`,
    relativePath: name,
    file: parseHttpFile(text, `/ws/${name}`),
  }));
  const save = (file: HttpFile, text: string): HttpFile => {
    services.saved.set(file.path, text);
    return parseHttpFile(text, file.path);
  };
  const services: FakeServices = {
    root: '/ws',
    calls: [],
    saved: new Map(),
    written: new Map(),
    remembered: [],
    body,
    historyItems: [],
    editorReply: '',
    rememberedRequests: [],
    loadWorkspace: async () => entries,
    environments: async () => ['local', 'staging'],
    async execute(_file, node, options: ExecuteOptions): Promise<ResponseResult> {
      services.calls.push({ name: node.name, environment: options.environment });
      options.onState('resolving');
      for (const prompt of node.prompts) await options.prompt(prompt.name, prompt.description);
      options.onState('sending');
      if (services.gate) {
        await Promise.race([
          services.gate,
          new Promise<never>((_, reject) =>
            options.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
          ),
        ]);
      }
      return { exchange: exchangeWith(services.body), bodyText: services.body, contentType: 'application/json' };
    },
    saveRequest: async (file, index, block) => save(file, replaceRequestText(file, index, block)),
    appendRequest: async (file, block) => save(file, insertRequestText(file, block)),
    createRequest: async (file, block) => {
      if (file) return save(file, insertRequestText(file, block));
      // A first file in an empty workspace: it joins the workspace, as on disk.
      const created = parseHttpFile(block, '/ws/requests.http');
      services.saved.set(created.path, block);
      entries.push({ path: created.path, relativePath: 'requests.http', file: created });
      return created;
    },
    importRequests: async () => {
      throw new Error('the fake services import nothing');
    },
    // What the real preview shows without variables: the request line and headers as written.
    preview: async (_file, node) => ({
      lines: [`${node.method} ${node.url}`, ...node.headers.map((h) => `${h.name}: ${h.value}`)],
    }),
    deleteRequest: async (file, index) => save(file, removeRequestText(file, index)),
    history: async () => services.historyItems,
    rememberEnvironment: async (name) => {
      services.remembered.push(name);
    },
    curl: (result) => `curl ${result.exchange.request.url}`,
    saveBody: async (result, path) => {
      services.written.set(path, result.bodyText);
    },
    external: async () => services.editorReply,
    requestKey: (file, node) => `${file.path}#${node.name ?? node.index}`,
    rememberRequest: async (key) => {
      services.rememberedRequests.push(key);
    },
  };
  return services;
}

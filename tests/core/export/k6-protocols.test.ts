/** `dial export k6` and the protocol requests: GRAPHQL becomes the JSON POST dial sends; what k6 cannot do is refused at its line. */
import { describe, expect, it } from 'vitest';
import { exportK6 } from '../../../src/core/export/k6.js';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';
import { isDialError } from '../../../src/core/errors.js';

function exported(text: string) {
  return exportK6({
    files: [parseHttpFile(text, '/w/a.http')],
    environmentValues: new Map(),
    secretNames: [],
    scriptDir: '/w',
    cwd: '/w',
    dropScripts: false,
  });
}

function refusal(text: string): { message: string; line?: number } {
  try {
    exported(text);
  } catch (error) {
    if (!isDialError(error)) throw error;
    return { message: error.message, line: error.location?.line };
  }
  throw new Error('expected a refusal');
}

describe('k6 export of protocol requests', () => {
  it('a GRAPHQL request is a POST with Content-Type: application/json and the JSON payload', () => {
    const { script } = exported('GRAPHQL http://x/graphql\n\nquery { a }\n');
    expect(script).toContain('"method": "POST"');
    expect(script).toContain('"Content-Type",\n');
    expect(script).toContain('"application/json"');
    expect(script).not.toContain('"GRAPHQL"');
  });
  it('refuses SSE requests and GraphQL queries read from files, at their lines', () => {
    expect(refusal('GET http://x/a\n\n###\nSSE http://x/events\n')).toMatchObject({
      line: 4,
      message: expect.stringContaining('server-sent events'),
    });
    expect(refusal('GRAPHQL http://x/graphql\n\nquery { ...F }\n< ./f.graphql\n')).toMatchObject({
      line: 3,
      message: expect.stringContaining('GraphQL query or fragments from a file'),
    });
  });
  it("refuses kulala's shell commands (`# @env-stdin-cmd`) at their line", () => {
    expect(refusal('GET http://x/a\n\n###\n# @env-stdin-cmd T jq -r .t\nGET http://x/b\n')).toMatchObject({
      line: 4,
      message: expect.stringContaining('runs a shell command'),
    });
  });
});

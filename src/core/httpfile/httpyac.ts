/**
 * httpyac's `{{ … }}` script blocks (read from httpyac's javascriptHttpRegionParser): a line that
 * is only `{{`, optionally `{{@js`, a modifier (`+` = for every request of the file, `@` = none)
 * and an event name, opens a block that runs until a line that is only `}}`.
 *
 * When a block runs, as httpyac does it:
 * - no event: in order with the request, so above the request line before it is sent, below it
 *   after the response; in a region without a request (a global region), once before the file's
 *   requests;
 * - `response` / `after`: after the response (of every request of the file when the block
 *   stands in a global region or has `+`);
 * - `request`: on the final request (variables filled in, the URL complete) just before it is
 *   sent; what it changes in `request` is what is sent (`{{+request}}`: every request of the file);
 * - `streaming`, `responseLogging`: hooks on a stream, the log: refused (dial does not run them).
 */

/** A `{{ … }}` block as the parser keeps it: its code (from the end of the `{{` line) and the `{{` line (1-based). */
export interface HttpyacScript {
  code: string;
  line: number;
}

export interface HttpyacScriptStart {
  /** `+`: runs for every request of the file. */
  everyRequest: boolean;
  event?: 'request' | 'streaming' | 'response' | 'after' | 'responselogging';
}

const SCRIPT_START_RE = /^\s*\{\{(?:@js\s+)?(\+|@)?(request|streaming|response|after|responseLogging)?\s*$/i;
export const HTTPYAC_SCRIPT_END_RE = /^\s*\}\}\s*$/;

/** The `{{` line of an httpyac script block, or undefined when the line is something else. */
export function httpyacScriptStart(line: string): HttpyacScriptStart | undefined {
  const match = SCRIPT_START_RE.exec(line);
  if (!match) return undefined;
  const start: HttpyacScriptStart = { everyRequest: match[1] === '+' };
  if (match[2]) start.event = match[2].toLowerCase() as HttpyacScriptStart['event'];
  return start;
}

/** Why a block with this event is refused, or undefined when dial runs it. */
export function refusedScriptEvent(event: HttpyacScriptStart['event']): string | undefined {
  switch (event) {
    case 'streaming':
      return 'httpyac `{{@streaming}}` scripts (for streamed responses) are not supported';
    case 'responselogging':
      return 'httpyac `{{@responseLogging}}` scripts are not supported';
    default:
      return undefined;
  }
}

/** httpyac's variable for a request name (handleNameMetaData): spaces and dashes dropped, the next letter upper-cased (`get user` → `getUser`). */
export function httpyacVariableName(name: string): string {
  return name
    .trim()
    .replace(/\s/g, '-')
    .replace(/-./g, (pair) => pair[1].toUpperCase());
}

/** The file-wide scripts of an httpyac file, collected while parsing. */
export interface HttpyacFileScripts {
  /** Blocks of global regions: run once, before the file's first request. */
  once: HttpyacScript[];
  /** `{{+ }}` blocks: before every request. */
  everyPre: HttpyacScript[];
  /** `{{+request}}` blocks: on every final request. */
  everyRequest: HttpyacScript[];
  /** `{{+response}}`, `{{+after}}`, and `{{@response}}` in a global region: after every response. */
  everyPost: HttpyacScript[];
}

/**
 * httpyac's prompts (`{{$input label $value: 1}}`, `{{$password …}}`, `{{$pick …}}`) ask a person
 * when the request is sent. A `dial run` asks nobody, so a file whose requests need one is refused
 * while the run is planned, at the prompt's line, before any request of the run is sent (the
 * resolver would otherwise stop at that request, after the ones before it went out).
 */
import { DialError } from '../errors.js';
import type { HttpFile, RequestNode } from '../httpfile/types.js';

const PROMPT_RE = /\{\{\s*\$(?:input|password|pick)(?:-askonce)?\s[^}]*\}\}/;
const NAME_RE = /\{\{\s*([A-Za-z_$][\w$.-]*)\s*\}\}/g;

function requestTexts(node: RequestNode): string[] {
  const texts = [node.url, ...node.headers.map((header) => header.value)];
  if (node.body?.kind === 'inline') texts.push(node.body.text);
  return texts;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let k = text.indexOf('\n'); k >= 0 && k < offset; k = text.indexOf('\n', k + 1)) line++;
  return line;
}

function refusal(file: HttpFile, prompt: string, line: number, variable?: string): DialError {
  return new DialError(
    'E_VAR_UNDEFINED',
    `${prompt} asks for a value, and a run cannot ask${variable ? ` (variable '${variable}')` : ''}; nothing was sent`,
    {
      location: { file: file.path, line },
      hint: variable
        ? `pass --var ${variable}=… (or send the request from a terminal with \`dial send\`, which asks)`
        : 'put it in a file variable (`@id = {{$input …}}`) and pass --var id=…, or send the request from a terminal with `dial send`, which asks',
    },
  );
}

/** Throws E_VAR_UNDEFINED at the first prompt a request of this httpyac file would ask, unless --var answers it. */
export function refuseUnansweredPrompts(file: HttpFile, given: Readonly<Record<string, string>>): void {
  if (file.dialect !== 'httpyac') return;
  // File variables that ask, directly or through another one (`@auth = {{user}}:{{pass}}`).
  const asking = new Map<string, { prompt: string; line: number; name: string }>();
  for (let changed = true; changed;) {
    changed = false;
    for (const variable of file.variables) {
      if (asking.has(variable.name) || Object.hasOwn(given, variable.name)) continue;
      const direct = PROMPT_RE.exec(variable.value)?.[0];
      const through = direct
        ? undefined
        : [...variable.value.matchAll(NAME_RE)].map((m) => asking.get(m[1]?.split('.')[0] ?? '')).find(Boolean);
      if (direct || through) {
        asking.set(
          variable.name,
          direct ? { prompt: direct, line: variable.span.line, name: variable.name } : through!,
        );
        changed = true;
      }
    }
  }
  for (const node of file.requests) {
    for (const text of requestTexts(node)) {
      const prompt = PROMPT_RE.exec(text)?.[0];
      if (prompt) {
        const at = file.text.indexOf(prompt, node.requestLineSpan.start);
        throw refusal(file, prompt, at >= 0 ? lineOf(file.text, at) : node.requestLineSpan.line);
      }
      for (const match of text.matchAll(NAME_RE)) {
        const found = asking.get(match[1].split('.')[0]);
        if (found) throw refusal(file, found.prompt, found.line, found.name);
      }
    }
  }
}

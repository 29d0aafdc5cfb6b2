/** What `dial --help` adds after Commander's list: one example per command, and the exit codes. */
import { exitCodeMeanings } from '../core/errors.js';

/** One line per command, in the order `dial --help` lists them. */
export const commandExamples: readonly (readonly [string, string])[] = [
  ['dial send :4010/post name=ada age:=36', 'one request, HTTPie-style items (JSON body)'],
  ['dial run api/ -e ci --reporter junit:out.xml', '.http files as tests'],
  ['dial report merge shard-*.json', 'combine the JSON reports of sharded runs'],
  ['dial open', 'the full-screen workbench (also plain `dial`)'],
  ['dial list', 'the requests of the workspace'],
  ["dial import curl 'curl https://x.dev/a'", 'curl, Postman, OpenAPI, HAR, Insomnia or Bruno into .http'],
  ['dial export curl api.http#login -e dev', 'a request as curl; also k6 scripts and HAR'],
  ['dial fmt --check', 'format .http files (a diff and exit 1 in CI)'],
  ['dial check -e dev', 'undefined variables, bad metadata or JSON, without sending'],
  ['dial trust .', 'let the scripts of this workspace use Node'],
  ['dial auth login my-api -e dev', 'sign in with an OAuth 2.0 configuration of the env file'],
  ['dial env show dev', 'the variables of an environment (secrets masked)'],
  ['dial config set timeout 10s', 'change a setting'],
  ['dial history show 1', 'the last exchange'],
  ['dial echo', 'a local httpbin-compatible server on 127.0.0.1:4010'],
  ['dial completion bash', 'a shell completion script'],
  ['dial cookies list', "the workspace's saved cookies (values masked)"],
  ['dial sessions show ann', 'a `dial send --session` session (credentials masked)'],
];

/** The text after the command list: examples, exit codes and where the reference lives. */
export function rootHelpText(): string {
  const width = Math.max(...commandExamples.map(([example]) => example.length));
  const examples = commandExamples.map(([example, what]) => `  ${example.padEnd(width)}  ${what}`);
  const codes = Object.entries(exitCodeMeanings).map(([code, meaning]) => `  ${code.padStart(3)}  ${meaning}`);
  return [
    '',
    'Examples:',
    ...examples,
    '',
    'Exit codes:',
    ...codes,
    '',
    'Every command, flag and environment variable: docs/cli.md',
  ].join('\n');
}

/**
 * `dial send [METHOD] URL [ITEMS…]` and `dial send FILE.http[#name]`. Defines the flags, turns
 * them into typed options (./options.ts) and hands those to ./run-send.ts, which is imported
 * inside the action (./action.ts), with the core it uses, to keep start-up lean.
 */
import type { Command } from 'commander';
import { applyDialectFlag, dialectOption } from '../dialect-flag.js';
import { globalOptions } from '../globals.js';
import { sendAction } from './action.js';
import { addCookieJarFlags, addTimeoutFlag, addTransportFlags, addVariableFlags } from '../flags.js';

/** Registers `dial send`. */
const SEND_EXAMPLES = `
Examples:
  dial send :3000/users                       GET http://localhost:3000/users
  dial send :3000/users name=Ann age:=30      POST {"name":"Ann","age":30}
  dial send PUT api.example.com/x 'tags[]=a' X-Token:abc q==1
  dial send --form :3000/upload avatar@me.png
  dial send -o out.bin https://example.com/file
  dial send api.http#login -e dev --var user=ann
  dial send --session ann -a ann:pw :3000/login   then: dial send --session ann :3000/me
  dial send ws://127.0.0.1:4010/ws            WebSocket: stdin lines out, replies printed`;

export function registerSend(program: Command): void {
  const command = program
    .command('send')
    .description('Send one request: HTTPie-style items, or a request from a .http file')
    .argument(
      '[request...]',
      '[METHOD] URL [ITEMS…] — Header:value, name==query, field=value, field:=json, field@file, @file — or FILE.http[#name]',
    )
    .option('-j, --json', 'send data fields as JSON (the default); event streams, WebSocket: one JSON line per message')
    .option('-f, --form', 'send data fields as a urlencoded form')
    .option('--multipart', 'send data fields as multipart/form-data')
    .option('--offline', 'print the request instead of sending it')
    .option('--curl', 'print the equivalent curl command instead of sending')
    .option(
      '-p, --print <parts>',
      'what to print: H request headers, B request body, h response headers, b response body, m metadata',
    )
    .option('--check-status', 'exit 1 on a 4xx/5xx response')
    .option('-d, --download', 'save the response body to a file named by the server (in the current folder)')
    .option('-o, --output <file>', 'save the response body to FILE')
    .option('-F, --follow', 'follow redirects')
    .option('--no-follow', 'do not follow redirects')
    .option('--max-redirects <n>', 'most redirects to follow (default 10)')
    .option('--verify <yes|no|CA_FILE>', 'verify the TLS certificate (default yes), or against a CA bundle');
  addTimeoutFlag(command, 'time limit for the whole exchange: 500ms, 30s, 2m; 0 = none');
  addTransportFlags(command, {
    insecure: 'do not verify TLS certificates (prints a warning)',
    proxy: 'send through this proxy (default HTTP(S)_PROXY)',
  });
  command
    .option('--http2', 'use HTTP/2')
    .option('-a, --auth <credentials>', 'USER:PASSWORD (basic, digest) or a token (bearer)')
    .option('-A, --auth-type <type>', 'basic (default), digest or bearer')
    .option(
      '-I, --ignore-stdin',
      'do not read a request body from piped stdin (stdin is waited on for --timeout at most)',
    )
    .option(
      '--no-deps',
      'refuse to send the requests a .http request references (they are announced on stderr otherwise)',
    )
    .option('--no-mask', 'print secrets and credential headers as they are (history still masks them)')
    .option('--no-scripts', "do not run a .http request's pre-request and response scripts");
  addVariableFlags(command, { env: 'environment for a .http target', var: 'variable for a .http target (repeatable)' });
  addCookieJarFlags(command);
  command
    .option(
      '--session <name>',
      "keep headers, -a credentials and cookies between sends to the URL's host (or a FILE.json)",
    )
    .option('--session-read-only <name>', 'use a session without saving what this send changes')
    .option('--name <name>', 'the request of the .http file with this `# @name` or `###` title (as FILE.http#NAME)')
    .addHelpText('after', SEND_EXAMPLES)
    .option(...dialectOption)
    .hook('preAction', applyDialectFlag)
    .action((args: string[], flags: unknown, sub: Command) => sendAction(args, flags, globalOptions(sub)));
}

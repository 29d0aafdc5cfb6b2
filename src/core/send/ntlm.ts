/**
 * NTLM over HTTP, as kulala asks of curl (`Authorization: NTLM user:password` → `curl --ntlm -u
 * user:password`): the request goes out with a NEGOTIATE message; the server's 401 carries a
 * CHALLENGE; the request goes again, on the same keep-alive connection, with an AUTHENTICATE
 * message holding the NTLMv2 response (MS-NLMP, https://learn.microsoft.com/en-us/openspecs/
 * windows_protocols/ms-nlmp/). As curl, the NEGOTIATE round sends no body (the server is expected
 * to answer 401), and the user may be written `DOMAIN\user`. NTLMv1, the LM response alone, and
 * signing/sealing (which HTTP does not use) are not implemented.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { DialError } from '../errors.js';
import type { Exchange, HeaderList, HttpRequest, ResponseBody } from '../http/types.js';
import { md4 } from './md4.js';

const SIGNATURE = Buffer.from('NTLMSSP\0', 'latin1');
const NEGOTIATE_UNICODE = 0x00000001;
const NEGOTIATE_OEM = 0x00000002;
const REQUEST_TARGET = 0x00000004;
const NEGOTIATE_NTLM = 0x00000200;
const NEGOTIATE_ALWAYS_SIGN = 0x00008000;
const NEGOTIATE_EXTENDED_SESSIONSECURITY = 0x00080000;
/** The flags curl's NEGOTIATE message asks for (0x00088206: curl 7.88 sends the same bytes). */
const NEGOTIATE_FLAGS =
  NEGOTIATE_OEM | REQUEST_TARGET | NEGOTIATE_NTLM | NEGOTIATE_ALWAYS_SIGN | NEGOTIATE_EXTENDED_SESSIONSECURITY;
const AV_TIMESTAMP = 7;

export interface NtlmCredentials {
  username: string;
  password: string;
  domain: string;
}

/** `user:password` or `DOMAIN\user:password` (also `DOMAIN/user`), as curl's `-u` reads it. */
export function ntlmCredentials(username: string, password: string): NtlmCredentials {
  const cut = username.search(/[\\/]/);
  return cut < 0
    ? { username, password, domain: '' }
    : { username: username.slice(cut + 1), password, domain: username.slice(0, cut) };
}

/** The NT hash: MD4 of the password in UTF-16LE. */
export function ntHash(password: string): Buffer {
  return md4(Buffer.from(password, 'utf16le'));
}

/** NTOWFv2: HMAC-MD5 of the upper-cased user and the domain (UTF-16LE), keyed with the NT hash. */
export function ntowfv2(credentials: NtlmCredentials): Buffer {
  return createHmac('md5', ntHash(credentials.password))
    .update(Buffer.from(credentials.username.toUpperCase() + credentials.domain, 'utf16le'))
    .digest();
}

/** The NEGOTIATE message (type 1), as curl sends it: flags, empty domain and workstation. */
export function negotiateMessage(): Buffer {
  const message = Buffer.alloc(32);
  SIGNATURE.copy(message, 0);
  message.writeUInt32LE(1, 8);
  message.writeUInt32LE(NEGOTIATE_FLAGS, 12);
  return message;
}

export interface NtlmChallenge {
  flags: number;
  serverChallenge: Buffer;
  targetInfo: Buffer;
}

/** Reads a CHALLENGE message (type 2); undefined when the bytes are not one. */
export function parseChallenge(bytes: Buffer): NtlmChallenge | undefined {
  if (bytes.length < 32 || !bytes.subarray(0, 8).equals(SIGNATURE) || bytes.readUInt32LE(8) !== 2) return undefined;
  const flags = bytes.readUInt32LE(20);
  const serverChallenge = Buffer.from(bytes.subarray(24, 32));
  let targetInfo = Buffer.alloc(0);
  if (bytes.length >= 48) {
    const length = bytes.readUInt16LE(40);
    const offset = bytes.readUInt32LE(44);
    if (offset + length > bytes.length) return undefined;
    targetInfo = Buffer.from(bytes.subarray(offset, offset + length));
  }
  return { flags, serverChallenge, targetInfo };
}

/** The server's MsvAvTimestamp, when its target info has one. */
function serverTimestamp(targetInfo: Buffer): Buffer | undefined {
  for (let at = 0; at + 4 <= targetInfo.length;) {
    const id = targetInfo.readUInt16LE(at);
    const length = targetInfo.readUInt16LE(at + 2);
    if (id === 0) return undefined;
    if (id === AV_TIMESTAMP && length === 8) return Buffer.from(targetInfo.subarray(at + 4, at + 12));
    at += 4 + length;
  }
  return undefined;
}

/** Now as a FILETIME: 100 ns ticks since 1601-01-01, little-endian. */
function fileTime(now: Date): Buffer {
  const ticks = (BigInt(now.getTime()) + 11_644_473_600_000n) * 10_000n;
  const out = Buffer.alloc(8);
  out.writeBigUInt64LE(ticks);
  return out;
}

/** The NTLMv2 and LMv2 responses (MS-NLMP 3.3.2) for a challenge; inputs given for tests. */
export function ntlmv2Responses(
  credentials: NtlmCredentials,
  challenge: Pick<NtlmChallenge, 'serverChallenge' | 'targetInfo'>,
  clientChallenge: Buffer,
  timestamp: Buffer,
): { nt: Buffer; lm: Buffer; ntProof: Buffer } {
  const key = ntowfv2(credentials);
  const temp = Buffer.concat([
    Buffer.from([1, 1, 0, 0, 0, 0, 0, 0]),
    timestamp,
    clientChallenge,
    Buffer.alloc(4),
    challenge.targetInfo,
    Buffer.alloc(4),
  ]);
  const ntProof = createHmac('md5', key)
    .update(Buffer.concat([challenge.serverChallenge, temp]))
    .digest();
  const lm = Buffer.concat([
    createHmac('md5', key)
      .update(Buffer.concat([challenge.serverChallenge, clientChallenge]))
      .digest(),
    clientChallenge,
  ]);
  return { nt: Buffer.concat([ntProof, temp]), lm, ntProof };
}

/** The AUTHENTICATE message (type 3) answering a challenge (NTLMv2; strings in UTF-16LE when the server takes them). */
export function authenticateMessage(
  credentials: NtlmCredentials,
  challenge: NtlmChallenge,
  now = new Date(),
  clientChallenge: Buffer = randomBytes(8),
): Buffer {
  const timestamp = serverTimestamp(challenge.targetInfo);
  const { nt, lm } = ntlmv2Responses(credentials, challenge, clientChallenge, timestamp ?? fileTime(now));
  const unicode = (challenge.flags & NEGOTIATE_UNICODE) !== 0;
  const text = (value: string): Buffer => Buffer.from(value, unicode ? 'utf16le' : 'latin1');
  // With the server's timestamp the LMv2 response is sent as zeros (MS-NLMP 3.1.5.1.2).
  const fields = [
    timestamp ? Buffer.alloc(24) : lm,
    nt,
    text(credentials.domain),
    text(credentials.username),
    text(''),
  ];
  const header = Buffer.alloc(64);
  SIGNATURE.copy(header, 0);
  header.writeUInt32LE(3, 8);
  let offset = 64;
  // LM, NT, domain, user, workstation security buffers at 12, 20, 28, 36, 44; the session key (52) is empty.
  fields.forEach((field, index) => {
    const at = 12 + index * 8;
    header.writeUInt16LE(field.length, at);
    header.writeUInt16LE(field.length, at + 2);
    header.writeUInt32LE(offset, at + 4);
    offset += field.length;
  });
  header.writeUInt32LE(offset, 56);
  header.writeUInt32LE(
    (challenge.flags & (NEGOTIATE_FLAGS & ~NEGOTIATE_OEM)) | (unicode ? NEGOTIATE_UNICODE : NEGOTIATE_OEM),
    60,
  );
  return Buffer.concat([header, ...fields]);
}

/** The NTLM challenge of a 401's `WWW-Authenticate: NTLM <base64>` headers, if any. */
export function challengeOf(headers: HeaderList): NtlmChallenge | undefined {
  for (const [name, value] of headers) {
    if (name.toLowerCase() !== 'www-authenticate') continue;
    const match = /^\s*NTLM\s+([A-Za-z0-9+/=]+)\s*$/i.exec(value);
    if (match) return parseChallenge(Buffer.from(match[1], 'base64'));
  }
  return undefined;
}

/**
 * Sends the request with NTLM: NEGOTIATE (no body), then, on a 401 with a CHALLENGE, the request
 * with its body and the AUTHENTICATE message. Any other first answer is returned as it is.
 */
export async function sendWithNtlm(
  send: (request: HttpRequest) => Promise<Exchange>,
  request: HttpRequest,
  credentials: NtlmCredentials,
  options: { release?: (body: ResponseBody) => void } = {},
): Promise<{ exchange: Exchange; request: HttpRequest }> {
  if (request.httpVersion === '2')
    throw new DialError('E_INPUT', 'NTLM authentication needs HTTP/1.1 (it authenticates the connection)', {
      hint: 'drop HTTP/2 from the request line (curl --ntlm does the same)',
    });
  const without = request.headers.filter(([name]) => name.toLowerCase() !== 'authorization');
  const negotiate: HttpRequest = {
    ...request,
    headers: [...without, ['Authorization', `NTLM ${negotiateMessage().toString('base64')}`]],
    body: { kind: 'none' },
  };
  if (request.body.kind !== 'none') negotiate.headers.push(['Content-Length', '0']);
  const first = await send(negotiate);
  // Not a 401 with a challenge (the server does not ask for NTLM, or refuses it): that answer is
  // the outcome, as curl's.
  const challenge = first.response.status === 401 ? challengeOf(first.response.headers) : undefined;
  if (!challenge) return { exchange: first, request: negotiate };
  options.release?.(first.response.body);
  const answered: HttpRequest = {
    ...request,
    headers: [...without, ['Authorization', `NTLM ${authenticateMessage(credentials, challenge).toString('base64')}`]],
  };
  return { exchange: await send(answered), request: answered };
}

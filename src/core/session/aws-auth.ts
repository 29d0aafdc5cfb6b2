/**
 * `Authorization: AWS key secret [token:…] [region:…] [service:…]` (kulala, httpyac): the prepared
 * request signed with AWS Signature v4 (core/send/aws-sigv4.ts). Loaded only by requests that carry it.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { DialError } from '../errors.js';
import type { HttpRequest, RequestBody } from '../http/types.js';
import { awsScope, parseAwsAuthorization, signedAwsHeaders } from '../send/aws-sigv4.js';

export interface AwsAuthSite {
  /** The header's value with its variables filled in. */
  value: string;
  location: { file: string; line: number };
}

async function payloadHash(body: RequestBody, site: AwsAuthSite): Promise<string> {
  const hash = createHash('sha256');
  switch (body.kind) {
    case 'none':
      break;
    case 'text':
      hash.update(body.text, 'utf8');
      break;
    case 'bytes':
      hash.update(body.bytes);
      break;
    case 'file':
      for await (const chunk of createReadStream(body.path)) hash.update(chunk as Buffer);
      break;
    default:
      throw new DialError(
        'E_INPUT',
        `AWS Signature v4: a ${body.kind} body cannot be signed (its bytes are only known as they are sent)`,
        { location: site.location, hint: 'write the body in the file or read it with `< ./file`' },
      );
  }
  return hash.digest('hex');
}

/** The request with the AWS line replaced by X-Amz-Date, the token and the signature; `now` for tests. */
export async function signAwsRequest(request: HttpRequest, site: AwsAuthSite, now = new Date()): Promise<HttpRequest> {
  const credentials = parseAwsAuthorization(site.value);
  if (!credentials)
    throw new DialError('E_INPUT', 'AWS Signature v4: cannot read the Authorization line', {
      location: site.location,
      hint: 'write `Authorization: AWS <access-key-id> <secret-access-key> [token:<session-token>] [region:<region>] [service:<service>]`',
    });
  const scope = awsScope(credentials, request.url);
  if (!scope)
    throw new DialError(
      'E_INPUT',
      `AWS Signature v4: no region and service for ${new URL(request.url).host} (not a SERVICE.REGION.amazonaws.com host)`,
      { location: site.location, hint: 'add region:<region> service:<service> to the Authorization line' },
    );
  const headers = signedAwsHeaders(
    {
      method: request.method,
      url: request.url,
      headers: request.headers,
      payloadHash: await payloadHash(request.body, site),
    },
    credentials,
    scope,
    now,
  );
  return { ...request, headers };
}

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  EMPTY_PAYLOAD_HASH,
  amzDate,
  awsScope,
  canonicalQuery,
  canonicalUri,
  parseAwsAuthorization,
  signatureOf,
  signedAwsHeaders,
} from '../../../src/core/send/aws-sigv4.js';

/*
 * Values from AWS's Signature Version 4 test suite (aws-sig-v4-test-suite), published at
 * https://docs.aws.amazon.com/general/latest/gr/signature-v4-test-suite.html
 * (the algorithm: https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html).
 * Every case signs with the suite's credentials, region us-east-1, service "service", at 20150830T123600Z;
 * each expected value is the suite's `.authz` / `.creq` / `.sts` file for the case named.
 */
const SUITE = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const SCOPE = { region: 'us-east-1', service: 'service' };
const DATE = '20150830T123600Z';
const CREDENTIAL = 'Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request';
const HOST: [string, string] = ['Host', 'example.amazonaws.com'];
const X_AMZ_DATE: [string, string] = ['X-Amz-Date', DATE];
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('AWS Signature v4 against the AWS test suite', () => {
  it('get-vanilla: canonical request, string to sign and Authorization', () => {
    const signed = signatureOf(
      {
        method: 'GET',
        url: 'https://example.amazonaws.com/',
        headers: [HOST, X_AMZ_DATE],
        payloadHash: EMPTY_PAYLOAD_HASH,
      },
      SUITE,
      SCOPE,
      DATE,
    );
    expect(signed.canonicalRequest).toBe(
      'GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n' +
        'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    expect(signed.stringToSign).toBe(
      'AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\n' +
        'bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63',
    );
    expect(signed.authorization).toBe(
      `AWS4-HMAC-SHA256 ${CREDENTIAL}, SignedHeaders=host;x-amz-date, ` +
        'Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31',
    );
  });

  it.each([
    [
      'post-vanilla',
      'POST',
      '/',
      [],
      '',
      'host;x-amz-date',
      '5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b',
    ],
    [
      'get-vanilla-query-order-key-case',
      'GET',
      '/?Param2=value2&Param1=value1',
      [],
      '',
      'host;x-amz-date',
      'b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500',
    ],
    [
      'get-vanilla-query-unreserved',
      'GET',
      '/?-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz=-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
      [],
      '',
      'host;x-amz-date',
      '9c3e54bfcdf0b19771a7f523ee5669cdf59bc7cc0884027167c21bb143a40197',
    ],
    [
      'post-header-key-sort',
      'POST',
      '/',
      [['My-Header1', 'value1']],
      '',
      'host;my-header1;x-amz-date',
      'c5410059b04c1ee005303aed430f6e6645f61f4dc9e1461ec8f8916fdf18852c',
    ],
    [
      'post-header-value-case',
      'POST',
      '/',
      [['My-Header1', 'VALUE1']],
      '',
      'host;my-header1;x-amz-date',
      'cdbc9802e29d2942e5e10b5bccfdd67c5f22c7c4e8ae67b53629efa58b974b7d',
    ],
    [
      'post-x-www-form-urlencoded',
      'POST',
      '/',
      [['Content-Type', 'application/x-www-form-urlencoded']],
      'Param1=value1',
      'content-type;host;x-amz-date',
      'ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a',
    ],
    [
      'post-x-www-form-urlencoded-parameters',
      'POST',
      '/',
      [['Content-Type', 'application/x-www-form-urlencoded; charset=utf8']],
      'Param1=value1',
      'content-type;host;x-amz-date',
      '1a72ec8f64bd914b0e42e42607c7fbce7fb2c7465f63e3092b3b0d39fa77a6fe',
    ],
  ] as Array<[string, string, string, Array<[string, string]>, string, string, string]>)(
    '%s',
    (_name, method, target, extra, body, signedHeaders, signature) => {
      const signed = signatureOf(
        {
          method,
          url: `https://example.amazonaws.com${target}`,
          headers: [...extra, HOST, X_AMZ_DATE],
          payloadHash: sha256(body),
        },
        SUITE,
        SCOPE,
        DATE,
      );
      expect(signed.authorization).toBe(
        `AWS4-HMAC-SHA256 ${CREDENTIAL}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
      );
    },
  );

  it('signedAwsHeaders adds X-Amz-Date and signs host from the URL (get-vanilla again, end to end)', () => {
    const headers = signedAwsHeaders(
      { method: 'GET', url: 'https://example.amazonaws.com/', headers: [], payloadHash: EMPTY_PAYLOAD_HASH },
      SUITE,
      SCOPE,
      new Date('2015-08-30T12:36:00Z'),
    );
    expect(headers).toEqual([
      ['X-Amz-Date', DATE],
      [
        'Authorization',
        `AWS4-HMAC-SHA256 ${CREDENTIAL}, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31`,
      ],
    ]);
  });
});

describe('AWS Signature v4 pieces', () => {
  it('reads kulala/httpyac Authorization lines', () => {
    expect(parseAwsAuthorization('AWS AKID SECRET token:T0K region:eu-west-1 service:execute-api')).toEqual({
      accessKeyId: 'AKID',
      secretAccessKey: 'SECRET',
      sessionToken: 'T0K',
      region: 'eu-west-1',
      service: 'execute-api',
    });
    expect(parseAwsAuthorization('aws AKID SECRET')).toEqual({ accessKeyId: 'AKID', secretAccessKey: 'SECRET' });
    expect(parseAwsAuthorization('AWS AKID SECRET stray')).toBeUndefined();
    expect(parseAwsAuthorization('AWS AKID:signature')).toBeUndefined();
  });

  it('takes region and service from an AWS host name when not written (as curl does)', () => {
    expect(awsScope(SUITE, 'https://sqs.eu-central-1.amazonaws.com/')).toEqual({
      region: 'eu-central-1',
      service: 'sqs',
    });
    expect(awsScope({ ...SUITE, region: 'us-east-2' }, 'https://es.eu-central-1.amazonaws.com/')).toEqual({
      region: 'us-east-2',
      service: 'es',
    });
    expect(awsScope(SUITE, 'http://127.0.0.1:9000/')).toBeUndefined();
  });

  it('encodes the path once more except for S3, and sorts the query', () => {
    expect(canonicalUri('/a%20b/c', 'service')).toBe('/a%2520b/c');
    expect(canonicalUri('/a%20b/c', 's3')).toBe('/a%20b/c');
    expect(canonicalQuery('?b=2&a=x%20y&a=1&flag')).toBe('a=1&a=x%20y&b=2&flag=');
  });

  it('adds the session token and, for S3, the payload hash as signed headers', () => {
    const headers = signedAwsHeaders(
      { method: 'PUT', url: 'https://bucket.s3.amazonaws.com/k', headers: [], payloadHash: sha256('x') },
      { ...SUITE, sessionToken: 'T0K' },
      { region: 'us-east-1', service: 's3' },
      new Date('2015-08-30T12:36:00Z'),
    );
    expect(headers.slice(0, 3)).toEqual([
      ['X-Amz-Date', DATE],
      ['X-Amz-Security-Token', 'T0K'],
      ['X-Amz-Content-Sha256', sha256('x')],
    ]);
    expect(headers[3][1]).toContain('SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token,');
    expect(amzDate(new Date('2024-02-03T04:05:06.789Z'))).toBe('20240203T040506Z');
  });
});

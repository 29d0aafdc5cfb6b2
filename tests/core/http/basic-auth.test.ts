import { describe, expect, it } from 'vitest';
import { basicAuthorization } from '../../../src/core/http/basic-auth.js';

describe('basicAuthorization', () => {
  it('encodes user:password as UTF-8 base64 (RFC 7617)', () => {
    expect(basicAuthorization('Aladdin', 'open sesame')).toBe('Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==');
    expect(Buffer.from(basicAuthorization('zoë', 'pässword:with:colons').slice(6), 'base64').toString('utf8')).toBe(
      'zoë:pässword:with:colons',
    );
    expect(basicAuthorization('user', '')).toBe(`Basic ${Buffer.from('user:').toString('base64')}`);
  });
});

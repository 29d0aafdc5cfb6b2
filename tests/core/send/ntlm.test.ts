import { describe, expect, it } from 'vitest';
import { md4 } from '../../../src/core/send/md4.js';
import {
  authenticateMessage,
  negotiateMessage,
  ntHash,
  ntlmCredentials,
  ntlmv2Responses,
  ntowfv2,
  parseChallenge,
} from '../../../src/core/send/ntlm.js';

describe('MD4', () => {
  // The test suite of RFC 1320 (appendix A.5), https://www.rfc-editor.org/rfc/rfc1320
  it.each([
    ['', '31d6cfe0d16ae931b73c59d7e0c089c0'],
    ['a', 'bde52cb31de33e46245e05fbdbd6fb24'],
    ['abc', 'a448017aaf21d8525fc10ae87aa6729d'],
    ['message digest', 'd9130a8164549fe818874806e1c7014b'],
    ['abcdefghijklmnopqrstuvwxyz', 'd79e1c308aa5bbcdeea8ed63df412da9'],
    ['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', '043f8582f241db351ce627e153e7f0e4'],
    [
      '12345678901234567890123456789012345678901234567890123456789012345678901234567890',
      'e33b4ddc9c38f2199c3e7b164fcc0536',
    ],
  ])('MD4(%j)', (text, digest) => {
    expect(md4(Buffer.from(text, 'latin1')).toString('hex')).toBe(digest);
  });
});

/*
 * MS-NLMP section 4.2.4 (NTLMv2 authentication), the values Microsoft publishes for user "User",
 * domain "Domain", password "Password", server challenge 0123456789abcdef, client challenge
 * aaaaaaaaaaaaaaaa, time 0 and the target info NbDomainName "Domain", NbComputerName "Server":
 * https://learn.microsoft.com/en-us/openspecs/windows_protocols/ms-nlmp/
 */
describe('NTLMv2 against MS-NLMP 4.2.4', () => {
  const credentials = { username: 'User', domain: 'Domain', password: 'Password' };
  const targetInfo = Buffer.from('02000c0044006f006d00610069006e0001000c0053006500720076006500720000000000', 'hex');
  const serverChallenge = Buffer.from('0123456789abcdef', 'hex');
  const clientChallenge = Buffer.from('aaaaaaaaaaaaaaaa', 'hex');

  it('NT hash (3.3.1) and NTOWFv2 (4.2.4.1.1)', () => {
    expect(ntHash('Password').toString('hex')).toBe('a4f49c406510bdcab6824ee7c30fd852');
    expect(ntowfv2(credentials).toString('hex')).toBe('0c868a403bfd7a93a3001ef22ef02e3f');
  });

  it('LMv2 response (4.2.4.2.1), NTProofStr and the NTLMv2 response (4.2.4.2.2)', () => {
    const { lm, nt, ntProof } = ntlmv2Responses(
      credentials,
      { serverChallenge, targetInfo },
      clientChallenge,
      Buffer.alloc(8),
    );
    expect(lm.toString('hex')).toBe('86c35097ac9cec102554764a57cccc19aaaaaaaaaaaaaaaa');
    expect(ntProof.toString('hex')).toBe('68cd0ab851e51c96aabc927bebef6a1c');
    expect(nt.toString('hex')).toBe(
      '68cd0ab851e51c96aabc927bebef6a1c' +
        '01010000000000000000000000000000aaaaaaaaaaaaaaaa00000000' +
        '02000c0044006f006d00610069006e0001000c0053006500720076006500720000000000' +
        '00000000',
    );
  });

  it('messages: NEGOTIATE as curl sends it; a CHALLENGE read back; AUTHENTICATE with the fields in place', () => {
    const negotiate = negotiateMessage();
    // Byte for byte what curl 7.88 sends for `curl --ntlm -u user:pass` (captured from its request).
    expect(negotiate.toString('base64')).toBe('TlRMTVNTUAABAAAABoIIAAAAAAAAAAAAAAAAAAAAAAA=');
    const challengeBytes = Buffer.alloc(48 + targetInfo.length);
    challengeBytes.write('NTLMSSP\0', 0, 'latin1');
    challengeBytes.writeUInt32LE(2, 8);
    challengeBytes.writeUInt32LE(0x00888205, 20);
    serverChallenge.copy(challengeBytes, 24);
    challengeBytes.writeUInt16LE(targetInfo.length, 40);
    challengeBytes.writeUInt16LE(targetInfo.length, 42);
    challengeBytes.writeUInt32LE(48, 44);
    targetInfo.copy(challengeBytes, 48);
    const challenge = parseChallenge(challengeBytes)!;
    expect(challenge.serverChallenge).toEqual(serverChallenge);
    expect(challenge.targetInfo).toEqual(targetInfo);
    const message = authenticateMessage(credentials, challenge, new Date(0), clientChallenge);
    const field = (at: number) =>
      message.subarray(message.readUInt32LE(at + 4), message.readUInt32LE(at + 4) + message.readUInt16LE(at));
    // LMv2 at its buffer is the published value (no server timestamp); NTLMv2 = proof + blob with the target info.
    expect(field(12).toString('hex')).toBe('86c35097ac9cec102554764a57cccc19aaaaaaaaaaaaaaaa');
    expect(field(20).length).toBe(16 + 28 + targetInfo.length + 4);
    expect(field(20).subarray(44, 44 + targetInfo.length)).toEqual(targetInfo);
    expect(field(28).toString('utf16le')).toBe('Domain');
    expect(field(36).toString('utf16le')).toBe('User');
    expect(parseChallenge(Buffer.from('not ntlm'))).toBeUndefined();
  });

  it('reads DOMAIN\\user as curl -u does', () => {
    expect(ntlmCredentials('CORP\\ada', 'pw')).toEqual({ username: 'ada', domain: 'CORP', password: 'pw' });
    expect(ntlmCredentials('ada', 'pw')).toEqual({ username: 'ada', domain: '', password: 'pw' });
  });
});

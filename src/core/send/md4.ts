/**
 * MD4 (RFC 1320, https://www.rfc-editor.org/rfc/rfc1320), for NTLM's NT hash only. Node 20's
 * OpenSSL 3 keeps MD4 in its legacy provider, which Node does not load (`createHash('md4')`
 * throws "unsupported"), so dial computes it here. Never use it for anything else.
 */

const rotl = (x: number, n: number): number => ((x << n) | (x >>> (32 - n))) >>> 0;

/** The MD4 digest of `data` (16 bytes). */
export function md4(data: Uint8Array): Buffer {
  const bitLength = data.length * 8;
  const padded = Buffer.alloc((((data.length + 8) >> 6) + 1) * 64);
  padded.set(data);
  padded[data.length] = 0x80;
  padded.writeUInt32LE(bitLength >>> 0, padded.length - 8);
  padded.writeUInt32LE(Math.floor(bitLength / 2 ** 32) >>> 0, padded.length - 4);
  let a = 0x67452301;
  let b = 0xefcdab89;
  let c = 0x98badcfe;
  let d = 0x10325476;
  const x = new Array<number>(16);
  const f = (p: number, q: number, r: number): number => (p & q) | (~p & r);
  const g = (p: number, q: number, r: number): number => (p & q) | (p & r) | (q & r);
  const h = (p: number, q: number, r: number): number => p ^ q ^ r;
  for (let block = 0; block < padded.length; block += 64) {
    for (let i = 0; i < 16; i++) x[i] = padded.readUInt32LE(block + i * 4);
    const [aa, bb, cc, dd] = [a, b, c, d];
    // Round 1: [abcd k s] a = (a + F(b,c,d) + X[k]) <<< s
    for (const k of [0, 4, 8, 12]) {
      a = rotl((a + f(b, c, d) + x[k]) >>> 0, 3);
      d = rotl((d + f(a, b, c) + x[k + 1]) >>> 0, 7);
      c = rotl((c + f(d, a, b) + x[k + 2]) >>> 0, 11);
      b = rotl((b + f(c, d, a) + x[k + 3]) >>> 0, 19);
    }
    // Round 2: a = (a + G(b,c,d) + X[k] + 5A827999) <<< s
    for (const k of [0, 1, 2, 3]) {
      a = rotl((a + g(b, c, d) + x[k] + 0x5a827999) >>> 0, 3);
      d = rotl((d + g(a, b, c) + x[k + 4] + 0x5a827999) >>> 0, 5);
      c = rotl((c + g(d, a, b) + x[k + 8] + 0x5a827999) >>> 0, 9);
      b = rotl((b + g(c, d, a) + x[k + 12] + 0x5a827999) >>> 0, 13);
    }
    // Round 3: a = (a + H(b,c,d) + X[k] + 6ED9EBA1) <<< s
    for (const k of [0, 2, 1, 3]) {
      a = rotl((a + h(b, c, d) + x[k] + 0x6ed9eba1) >>> 0, 3);
      d = rotl((d + h(a, b, c) + x[k + 8] + 0x6ed9eba1) >>> 0, 9);
      c = rotl((c + h(d, a, b) + x[k + 4] + 0x6ed9eba1) >>> 0, 11);
      b = rotl((b + h(c, d, a) + x[k + 12] + 0x6ed9eba1) >>> 0, 15);
    }
    a = (a + aa) >>> 0;
    b = (b + bb) >>> 0;
    c = (c + cc) >>> 0;
    d = (d + dd) >>> 0;
  }
  const out = Buffer.alloc(16);
  out.writeUInt32LE(a, 0);
  out.writeUInt32LE(b, 4);
  out.writeUInt32LE(c, 8);
  out.writeUInt32LE(d, 12);
  return out;
}

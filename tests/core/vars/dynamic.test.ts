import { describe, expect, it } from 'vitest';
import { evaluateDynamic, formatDate } from '../../../src/core/vars/index.js';
import { DialError } from '../../../src/core/errors.js';

const NOW = new Date('2024-03-05T07:08:09.123Z');
const secrets: string[] = [];
const ctx = {
  processEnv: { API_TOKEN: 'from-process', NAME_HOLDER: 'x' },
  dotenv: {
    path: '/w/.env',
    values: new Map([
      ['DB_PASS', 'hunter2'],
      ['OTHER', 'o'],
    ]),
  },
  variable: async (name: string) => (name === 'which' ? 'DB_PASS' : 'API_TOKEN'),
  where: "request 'r' at a.http:1",
  secret: (value: string) => secrets.push(value),
  now: () => NOW,
};
const ev = (expression: string) => evaluateDynamic(expression, ctx);

describe('dynamic variables', () => {
  it('$uuid, $guid and $random.uuid are v4 UUIDs, different each time', async () => {
    const re = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const values = await Promise.all(['$uuid', '$guid', '$random.uuid'].map(ev));
    for (const value of values) expect(value).toMatch(re);
    expect(new Set(values).size).toBe(3);
  });

  it('$timestamp is unix seconds, with offsets', async () => {
    expect(await ev('$timestamp')).toBe(String(Math.floor(NOW.getTime() / 1000)));
    expect(await ev('$timestamp -1 h')).toBe(String(Math.floor(NOW.getTime() / 1000) - 3600));
  });

  it('$isoTimestamp', async () => {
    expect(await ev('$isoTimestamp')).toBe('2024-03-05T07:08:09.123Z');
  });

  it('$datetime iso8601 | rfc1123 | "format" [offset]', async () => {
    expect(await ev('$datetime iso8601')).toBe('2024-03-05T07:08:09.123Z');
    expect(await ev('$datetime rfc1123')).toBe('Tue, 05 Mar 2024 07:08:09 GMT');
    expect(await ev('$datetime "YYYY-MM-DD HH:mm:ss"')).toBe('2024-03-05 07:08:09');
    expect(await ev("$datetime 'DD/MM/YY' 1 d")).toBe('06/03/24');
    expect(await ev('$datetime "YYYY" -2 y')).toBe('2022');
    expect(await ev('$datetime iso8601 1 M')).toBe('2024-04-05T07:08:09.123Z');
    expect(await ev('$datetime iso8601 -1 Q')).toBe('2023-12-05T07:08:09.123Z');
  });

  it('$localDatetime uses the local zone', async () => {
    const local = await ev('$localDatetime "YYYY-MM-DD HH:mm"');
    const expected = `${NOW.getFullYear()}-${String(NOW.getMonth() + 1).padStart(2, '0')}-${String(NOW.getDate()).padStart(2, '0')} ${String(NOW.getHours()).padStart(2, '0')}:${String(NOW.getMinutes()).padStart(2, '0')}`;
    expect(local).toBe(expected);
    // REST Client's dayjs().format(): seconds, no milliseconds, the zone offset.
    expect(await ev('$localDatetime iso8601')).toMatch(/^2024-03-0\dT\d\d:08:09[+-]\d\d:\d\d$/);
  });

  it('$randomInt [min max] stays in range (max exclusive)', async () => {
    for (let i = 0; i < 50; i++) {
      const n = Number(await ev('$randomInt 5 8'));
      expect(n).toBeGreaterThanOrEqual(5);
      expect(n).toBeLessThan(8);
    }
    const d = Number(await ev('$randomInt'));
    expect(d).toBeGreaterThanOrEqual(0);
    expect(d).toBeLessThan(1000);
    await expect(ev('$randomInt x 1')).rejects.toThrow(/bad range/);
  });

  it('$randomInt with a reversed range draws from it swapped, as httpyac does; an empty one gives min', async () => {
    // httpyac's own example file (variables/restClient.http) writes {{$randomInt -50 -100}}.
    for (let i = 0; i < 50; i++) {
      const n = Number(await ev('$randomInt -50 -100'));
      expect(n).toBeGreaterThanOrEqual(-100);
      expect(n).toBeLessThan(-50);
    }
    expect(await ev('$randomInt 7 7')).toBe('7');
  });

  it('$processEnv reads the process environment explicitly (and % indirection); values are secret', async () => {
    expect(await ev('$processEnv API_TOKEN')).toBe('from-process');
    expect(await ev('$processEnv %holder')).toBe('from-process');
    expect(secrets).toContain('from-process');
    await expect(ev('$processEnv NOPE')).rejects.toThrow(/environment variable 'NOPE' is not set/);
    await expect(ev('$processEnv NOPE')).rejects.toMatchObject({
      code: 'E_VAR_UNDEFINED',
      hint: expect.stringContaining('NOPE= sends an empty value'),
    });
  });

  it('$env.NAME (JetBrains) reads the process environment explicitly', async () => {
    expect(await ev('$env.API_TOKEN')).toBe('from-process');
    await expect(ev('$env.NOPE')).rejects.toThrow(/'NOPE' is not set/);
  });

  it('$dotenv reads .env', async () => {
    expect(await ev('$dotenv DB_PASS')).toBe('hunter2');
    expect(await ev('$dotenv %which')).toBe('hunter2');
    await expect(ev('$dotenv MISSING')).rejects.toThrow(/'MISSING' is not defined in \/w\/.env/);
  });

  it('$random.* functions (JetBrains)', async () => {
    expect(await ev('$random.alphabetic(12)')).toMatch(/^[a-zA-Z]{12}$/);
    expect(await ev('$random.hexadecimal(6)')).toMatch(/^[0-9a-f]{6}$/);
    const n = Number(await ev('$random.integer(10, 12)'));
    expect([10, 11]).toContain(n);
    expect(await ev('$random.email')).toMatch(/^[a-z]{8}@example\.com$/);
  });

  it('$random.integer / $random.float with one bound or an empty range are refused, not guessed (sweep 14)', async () => {
    // dial used to send 100000 every time for $random.integer(100000).
    await expect(ev('$random.integer(100000)')).rejects.toThrow(/takes two bounds/);
    await expect(ev('$random.integer(100000)')).rejects.toBeInstanceOf(DialError);
    await expect(ev('$random.float(5)')).rejects.toThrow(/takes two bounds/);
    await expect(ev('$random.integer(7, 7)')).rejects.toThrow(/from < to/);
    await expect(ev('$random.integer(9, 2)')).rejects.toThrow(/takes two bounds/);
    const n = Number(await ev('$random.integer()'));
    expect(n >= 0 && n < 1000).toBe(true);
    expect(Number(await ev('$random.float(1, 2)'))).toBeGreaterThanOrEqual(1);
  });

  it('unknown dynamic variables and bad offsets are E_VAR_UNDEFINED', async () => {
    await expect(ev('$nope')).rejects.toBeInstanceOf(DialError);
    await expect(ev('$nope')).rejects.toThrow(/unknown dynamic variable/);
    await expect(ev('$timestamp 1 fortnight')).rejects.toThrow(/unknown offset unit/);
  });

  it('formatDate supports literals and 12-hour clocks', () => {
    expect(formatDate(NOW, '[at] h:mm A, dddd MMMM D', true)).toBe('at 7:08 AM, Tuesday March 5');
  });
});

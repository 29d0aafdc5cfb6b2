// Custom `{{$datetime "…"}}` formats: REST Client uses day.js tokens, Visual Studio's .http editor
// .NET ones (its documentation shows `{{$datetime "dd-MM-yyyy"}}` giving "17-01-2024"). A .NET
// format used to come out as "dd-01-yyyy" — sent silently wrong.
import { describe, expect, it } from 'vitest';
import { evaluateDynamic } from '../../../src/core/vars/index.js';
import { dotnetDateFormat } from '../../../src/core/vars/dynamic.js';

const NOW = new Date('2024-01-17T22:59:55.534Z'); // a Wednesday
const ctx = {
  processEnv: {},
  dotenv: { path: '/w/.env', values: new Map<string, string>() },
  variable: async () => '',
  where: "request 'r' at a.http:1",
  secret: () => undefined,
  now: () => NOW,
};
const ev = (expression: string) => evaluateDynamic(expression, ctx);

describe('$datetime custom formats', () => {
  it('.NET formats (Visual Studio) are read with .NET tokens', async () => {
    expect(await ev('$datetime "dd-MM-yyyy"')).toBe('17-01-2024');
    expect(await ev('$datetime "dd-MM-yyyy" 1 d')).toBe('18-01-2024');
    expect(await ev('$datetime "yyyy-MM-ddTHH:mm:ss.fff"')).toBe('2024-01-17T22:59:55.534');
    expect(await ev('$datetime "hh:mm tt \'on\' dddd"')).toBe('10:59 PM on Wednesday');
  });

  it('day.js formats (REST Client) are unchanged, with dd/d as day.js reads them', async () => {
    expect(await ev('$datetime "YYYY-MM-DD"')).toBe('2024-01-17');
    expect(await ev('$datetime "dd D"')).toBe('We 17');
    expect(await ev('$datetime "d"')).toBe('3');
  });

  it('text around .NET tokens stays literal', () => {
    expect(dotnetDateFormat('yyyy ASAP')).toBe('YYYY[ ASAP]');
    expect(dotnetDateFormat('[x] YYYY')).toBe('[x] YYYY');
  });
});

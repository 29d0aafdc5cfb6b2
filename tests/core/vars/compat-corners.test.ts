import { describe, expect, it } from 'vitest';
import {
  evaluateDynamic,
  evaluateReference,
  parseReference,
  type RecordedExchange,
} from '../../../src/core/vars/index.js';
import { parseEnvFile } from '../../../src/core/env/env-store.js';

const recorded = {
  request: { method: 'GET', url: 'http://x/', headers: [], body: { kind: 'none' } },
  exchange: {
    request: { method: 'GET', url: 'http://x/', headers: [] },
    response: {
      status: 200,
      headers: [
        ['X-Id', '42'],
        ['Content-Type', 'application/json'],
      ],
      body: { kind: 'memory', bytes: Buffer.from('{"token":"t1","items":[{"id":7}]}') },
    },
  },
} as unknown as RecordedExchange;

function xmlExchange(body: string, contentType = 'application/xml'): RecordedExchange {
  return {
    request: { method: 'GET', url: 'http://x/', headers: [], body: { kind: 'none' } },
    exchange: {
      request: { method: 'GET', url: 'http://x/', headers: [] },
      response: {
        status: 200,
        headers: [['Content-Type', contentType]],
        body: { kind: 'memory', bytes: Buffer.from(body) },
      },
    },
  } as unknown as RecordedExchange;
}

describe('XPath references (REST Client)', () => {
  const replies = xmlExchange('<replies><reply id="3">first <b>one</b></reply><reply id="4">second</reply></replies>');
  const value = (raw: string, on = replies) => evaluateReference(parseReference(raw)!, on, raw, 'here');

  it('an attribute gives its value, an element its inner XML, a function its result', async () => {
    expect(await value('r.response.body.//reply[1]/@id')).toBe('3');
    expect(await value('r.response.body.//reply[1]')).toBe('first <b>one</b>');
    expect(await value('r.response.body.count(//reply)')).toBe('2');
    expect(await value('r.response.body./replies/reply[2]/text()')).toBe('second');
  });

  it('asXml. forces XPath, asJson. forces JSONPath; a $ path on XML stays JSONPath', async () => {
    const textXml = xmlExchange('<a><b>x</b></a>', 'text/plain');
    expect(await value('r.response.body.asXml.//b', textXml)).toBe('x');
    const jsonAsText = xmlExchange('{"b":"y"}', 'text/plain');
    expect(await value('r.response.body.asJson.$.b', jsonAsText)).toBe('y');
  });

  it('nothing selected, a body that is not XML or a broken XPath is E_VAR_UNDEFINED with the reason', async () => {
    await expect(value('r.response.body.//nope')).rejects.toThrow(/\/\/nope matched nothing/);
    await expect(value('r.response.body.//a', xmlExchange('not <xml'))).rejects.toThrow(/not XML/);
    await expect(value('r.response.body.//[')).rejects.toThrow(/not a valid XPath/);
  });
});

describe('references written the other tools’ ways', () => {
  it('reads headers[\'X-Id\'] and headers["X-Id"]', async () => {
    for (const raw of [
      "login.response.headers['X-Id']",
      'login.response.headers["X-Id"]',
      'login.response.headers.X-Id',
    ]) {
      const reference = parseReference(raw);
      expect(reference).toMatchObject({ section: 'headers', path: 'X-Id' });
      expect(await evaluateReference(reference!, recorded, raw, 'here')).toBe('42');
    }
  });
  it('reads a body path without $. from the root', async () => {
    expect(await evaluateReference(parseReference('login.response.body.token')!, recorded, 'x', 'here')).toBe('t1');
    expect(await evaluateReference(parseReference('login.response.body.items[0].id')!, recorded, 'x', 'here')).toBe(
      '7',
    );
    expect(await evaluateReference(parseReference('login.response.body.$.token')!, recorded, 'x', 'here')).toBe('t1');
  });
});

describe('kulala {{$date}}', () => {
  const context = {
    processEnv: {},
    variable: async () => '',
    where: 'here',
    secret: () => undefined,
    now: () => new Date(2024, 2, 5, 9, 7, 3),
  };
  it('is the local date, or a strftime format', async () => {
    expect(await evaluateDynamic('$date', context)).toBe('2024-03-05');
    expect(await evaluateDynamic('$date "%d/%m/%YT%H:%M"', context)).toBe('05/03/2024T09:07');
    await expect(evaluateDynamic('$date "%Q"', context)).rejects.toThrow(/strftime/);
  });
});

describe('env files', () => {
  it('ignore a "$schema" key', async () => {
    const file = await parseEnvFile(
      '{"$schema": "https://x/schema.json", "dev": {"host": "http://h"}}',
      'http-client.env.json',
      false,
    );
    expect(Object.keys(file.environments)).toEqual(['dev']);
  });
});

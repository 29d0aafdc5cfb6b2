/**
 * Where JSON text goes wrong. Node's JSON.parse names a position for some errors only
 * ("Unexpected token ']', … is not valid JSON" has none), so this small validator finds the
 * offset of the first character that cannot be part of valid JSON, for file:line:col messages.
 */

/** The 0-based offset of the first JSON syntax error, or undefined when the text is valid JSON. */
export function jsonErrorOffset(text: string): number | undefined {
  let at = 0;
  const fail = (): never => {
    throw new JsonSyntaxAt(at);
  };
  const skipSpace = () => {
    while (at < text.length && ' \t\r\n'.includes(text[at])) at++;
  };
  const expect = (char: string) => {
    if (text[at] !== char) fail();
    at++;
  };
  const string = () => {
    expect('"');
    while (text[at] !== '"') {
      if (at >= text.length || text.charCodeAt(at) < 0x20) fail();
      if (text[at] === '\\') {
        at++;
        if (text[at] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 1, at + 5))) fail();
          at += 4;
        } else if (!'"\\/bfnrt'.includes(text[at] ?? 'x')) fail();
      }
      at++;
    }
    at++;
  };
  const value = (): void => {
    skipSpace();
    const c = text[at];
    if (c === '{') {
      at++;
      skipSpace();
      if (text[at] === '}') return void at++;
      for (;;) {
        skipSpace();
        string();
        skipSpace();
        expect(':');
        value();
        skipSpace();
        if (text[at] === ',') at++;
        else return expect('}');
      }
    }
    if (c === '[') {
      at++;
      skipSpace();
      if (text[at] === ']') return void at++;
      for (;;) {
        value();
        skipSpace();
        if (text[at] === ',') at++;
        else return expect(']');
      }
    }
    if (c === '"') return string();
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(at, at + 400));
    if (!literal) fail();
    at += literal![0].length;
  };
  try {
    if (text.charCodeAt(0) === 0xfeff) at = 1;
    value();
    skipSpace();
    if (at < text.length) fail();
    return undefined;
  } catch (error) {
    if (error instanceof JsonSyntaxAt) return Math.min(error.offset, text.length);
    throw error;
  }
}

class JsonSyntaxAt extends Error {
  constructor(readonly offset: number) {
    super('JSON syntax error');
  }
}

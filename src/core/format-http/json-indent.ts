/**
 * Re-indenting a JSON body without changing a single value: strings and numbers are copied as
 * written (JSON.parse + stringify would round big integers and rewrite `1.0` and escapes).
 */

/** The body indented with two spaces per level, or undefined when the text is not one JSON value. */
export function indentJson(text: string, eol = '\n'): string | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return undefined;
  try {
    JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  return printTokens(tokenize(trimmed), eol);
}

/** Splits valid JSON into punctuation, strings and bare literals (numbers, true, false, null). */
function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let at = 0;
  while (at < text.length) {
    const c = text[at];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      at++;
    } else if (c === '"') {
      let end = at + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      tokens.push(text.slice(at, end + 1));
      at = end + 1;
    } else if ('{}[]:,'.includes(c)) {
      tokens.push(c);
      at++;
    } else {
      let end = at;
      while (end < text.length && !' \t\r\n{}[]:,"'.includes(text[end])) end++;
      tokens.push(text.slice(at, end));
      at = end;
    }
  }
  return tokens;
}

/** Prints tokens two spaces a level; empty objects and arrays stay `{}` and `[]`. */
function printTokens(tokens: string[], eol: string): string {
  let out = '';
  let depth = 0;
  const newline = () => `${eol}${'  '.repeat(depth)}`;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token === '{' || token === '[') {
      const close = token === '{' ? '}' : ']';
      if (tokens[i + 1] === close) {
        out += token + close;
        i++;
        continue;
      }
      depth++;
      out += token + newline();
    } else if (token === '}' || token === ']') {
      depth--;
      out += newline() + token;
    } else if (token === ',') {
      out += `,${newline()}`;
    } else if (token === ':') {
      out += ': ';
    } else {
      out += token;
    }
  }
  return out;
}

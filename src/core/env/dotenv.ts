/** `.env` files (the workspace root's): `KEY=value`, `export KEY=value`, quotes, `#` comments. */

function closingQuote(text: string, quote: string): number {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\' && quote === '"') i++;
    else if (text[i] === quote) return i;
  }
  return -1;
}

/** Parses .env text into ordered key/value pairs. Later keys win. Never throws: unreadable lines are skipped, as dotenv does. */
export function parseDotenv(text: string): Map<string, string> {
  const values = new Map<string, string>();
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const match = /^\s*(?:export\s+)?([\w.-]+)\s*=\s*(.*)$/.exec(lines[i]);
    if (!match) continue;
    let value = match[2];
    const quote = value[0];
    if (quote === '"' || quote === "'" || quote === '`') {
      // Quoted values may span lines until the closing quote.
      let rest = value.slice(1);
      let close = closingQuote(rest, quote);
      while (close < 0 && i + 1 < lines.length) {
        rest += `\n${lines[++i]}`;
        close = closingQuote(rest, quote);
      }
      value = close < 0 ? rest : rest.slice(0, close);
      if (quote === '"')
        value = value.replace(/\\n/g, '\n').replace(/\\r/g, '\r').replace(/\\t/g, '\t').replace(/\\"/g, '"');
    } else {
      const comment = value.search(/\s#/);
      if (comment >= 0) value = value.slice(0, comment);
      value = value.trim();
    }
    values.set(match[1], value);
  }
  return values;
}

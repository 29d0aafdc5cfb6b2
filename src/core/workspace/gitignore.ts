/**
 * The common subset of .gitignore patterns: `# comments`, `!negation`, `dir/` (directories only),
 * `/anchored` (relative to the root), patterns with a slash anchored to the root, `*`, `?`,
 * `[abc]`, `**` (any number of folders), and `\` escapes. Later patterns win, as in git.
 */

interface Rule {
  regex: RegExp;
  negate: boolean;
  dirOnly: boolean;
}

function toRegex(pattern: string, anchored: boolean): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') {
      if (pattern[i + 1] === '*') {
        const atStart = i === 0 || pattern[i - 1] === '/';
        const atEnd = i + 2 === pattern.length || pattern[i + 2] === '/';
        if (atStart && atEnd) {
          // `**/` = zero or more folders; trailing `/**` = everything inside.
          if (i + 2 === pattern.length) re += '.*';
          else {
            re += '(?:.*/)?';
            i++;
          }
          i++;
          continue;
        }
      }
      re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const close = pattern.indexOf(']', i + 1);
      if (close < 0) re += '\\[';
      else {
        re += `[${pattern
          .slice(i + 1, close)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        i = close;
      }
    } else if (c === '\\' && i + 1 < pattern.length) re += `\\${pattern[++i]}`;
    else re += /[.+^${}()|\]\\/]/.test(c) ? `\\${c}` : c;
  }
  // Unanchored patterns match at any depth; a match of a folder also covers what is inside it.
  return new RegExp(`^${anchored ? '' : '(?:.*/)?'}${re}(?:/.*)?$`);
}

/** Compiles .gitignore text into a matcher for paths relative to its folder (forward slashes). */
export function compileGitignore(text: string): (relativePath: string, isDirectory: boolean) => boolean {
  const verdict = compileGitignoreVerdict(text);
  return (relativePath, isDirectory) => verdict(relativePath, isDirectory) ?? false;
}

/**
 * Like compileGitignore, but answers undefined when no pattern matches, so that a deeper
 * .gitignore's verdict (including a `!negation`) can win over a shallower one's, as in git.
 */
export function compileGitignoreVerdict(
  text: string,
): (relativePath: string, isDirectory: boolean) => boolean | undefined {
  const rules: Rule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.replace(/(?<!\\)\s+$/, '');
    if (!line || line.startsWith('#')) continue;
    const negate = line.startsWith('!');
    if (negate) line = line.slice(1);
    const dirOnly = line.endsWith('/');
    if (dirOnly) line = line.slice(0, -1);
    const anchored = line.startsWith('/') || line.includes('/');
    if (line.startsWith('/')) line = line.slice(1);
    if (!line) continue;
    rules.push({ regex: toRegex(line, anchored), negate, dirOnly });
  }
  return (relativePath, isDirectory) => {
    let ignored: boolean | undefined;
    for (const rule of rules) {
      // A rule that cannot change the verdict so far is not even matched.
      if (ignored !== undefined && rule.negate !== ignored) continue;
      if (!rule.regex.test(relativePath)) continue;
      // `dir/` matches the folder itself, or any path below a folder of that name.
      if (rule.dirOnly && !isDirectory && !matchesAncestor(rule.regex, relativePath)) continue;
      ignored = !rule.negate;
    }
    return ignored;
  };
}

function matchesAncestor(regex: RegExp, path: string): boolean {
  for (let slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', slash + 1)) {
    const folder = path.slice(0, slash);
    // The regex allows a trailing `/…`, so test the folder itself without it.
    if (regex.test(folder)) return true;
  }
  return false;
}

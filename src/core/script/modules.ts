/**
 * Which modules a script loads, and which of them only Node can give. The sandbox provides a
 * few pure modules itself (prelude.ts's PURE: assert, chai, crypto); any other `require` needs
 * Node access. `dial run` checks every script before it sends anything, so a script that would
 * fail for want of Node never leaves a run half done.
 */

/** The modules the sandbox answers `require` with (the keys of PURE in prelude.ts). */
export const SANDBOX_MODULES: ReadonlySet<string> = new Set([
  'assert',
  'node:assert',
  'assert/strict',
  'node:assert/strict',
  'chai',
  'crypto',
  'node:crypto',
  'uuid',
]);

const REQUIRE = /\brequire\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g;
const IMPORT = /^\s*import\s[^;]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/m;

/** The module names `code` requires that the sandbox does not provide, and where the first is required. */
export function nodeOnlyModules(code: string): { names: string[]; firstIndex: number } {
  const matches = [...code.matchAll(REQUIRE)].filter((match) => !SANDBOX_MODULES.has(match[1]));
  return { names: [...new Set(matches.map((match) => match[1]))], firstIndex: matches[0]?.index ?? 0 };
}

/** The module of an ES `import` statement in `code`: scripts are not modules, so no engine runs one. */
export function importStatement(code: string): string | undefined {
  const match = IMPORT.exec(code);
  return match ? (match[1] ?? match[2]) : undefined;
}

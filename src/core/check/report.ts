/** Printing `dial check` findings: `file:line:col: severity: message [rule]`, or GitHub annotations. */
import type { Finding } from './types.js';

/** One line per finding, for people and editors (`file:line:col` is what they jump to). */
export function formatFindings(findings: Finding[]): string {
  return findings.map((f) => `${f.file}:${f.line}:${f.col}: ${f.severity}: ${f.message} [${f.rule}]\n`).join('');
}

/** GitHub Actions escapes: `%`, CR and LF in messages; also `:` and `,` in properties. */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** `::error file=…,line=…,col=…::message` workflow commands, one per finding. */
export function githubAnnotations(findings: Finding[]): string {
  return findings
    .map(
      (f) =>
        `::${f.severity} file=${escapeProperty(f.file)},line=${f.line},col=${f.col},title=${escapeProperty(`dial check ${f.rule}`)}::${escapeData(f.message)}\n`,
    )
    .join('');
}

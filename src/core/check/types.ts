/** What `dial check` reports: one finding at a file position. */
export type Severity = 'error' | 'warning';

export type FindingRule =
  | 'parse'
  | 'undefined-variable'
  | 'variable-cycle'
  | 'dynamic-variable'
  | 'unknown-metadata'
  | 'duplicate-name'
  | 'missing-request'
  | 'invalid-json'
  | 'missing-file'
  | 'env-file'
  | 'undefined-auth'
  | 'precedence';

export interface Finding {
  /** Relative to the working folder, forward slashes. */
  file: string;
  line: number;
  col: number;
  severity: Severity;
  rule: FindingRule;
  message: string;
}

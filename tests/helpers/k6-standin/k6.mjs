// The `k6` module as far as exported scripts use it: check() records each named check.
export function check(value, checks) {
  let all = true;
  for (const [name, test] of Object.entries(checks)) {
    const passed = Boolean(test(value));
    globalThis.__k6Checks.push({ name, passed });
    all = all && passed;
  }
  return all;
}

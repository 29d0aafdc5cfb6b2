/** Masking of secrets: variable values and sensitive headers. */
// The shape of http/types.ts's HeaderList, written here so secrets stays below http in the layers.
type HeaderList = Array<[name: string, value: string]>;

export const MASK = '••••';

/** A header whose name says it carries a credential (`X-Api-Key`, `PRIVATE-TOKEN`, `Session-Id`, `Set-Cookie`…). */
const SENSITIVE_NAME = /auth|token|key|secret|session|cookie|password/i;
/** Challenges name an auth scheme but carry no credential; they stay readable. */
const CHALLENGES = new Set(['www-authenticate', 'proxy-authenticate']);

/**
 * Whether a header carries a credential: masked in history, reports and -v, and dropped on a
 * redirect to another origin. The one list for the whole program. HTTP/2 pseudo-headers
 * (`:authority`) are not credentials.
 */
export function isSensitiveHeader(name: string): boolean {
  if (name.startsWith(':')) return false;
  return SENSITIVE_NAME.test(name) && !CHALLENGES.has(name.toLowerCase());
}

/** Headers masked in history and reports by default (a `has` view of isSensitiveHeader). */
export const SENSITIVE_HEADERS: { has(name: string): boolean } = { has: isSensitiveHeader };

/**
 * A secret as it may appear once used: as written, percent-encoded in a URL (path or query,
 * `+` for spaces in a form body) and escaped inside a JSON string.
 */
function encodedForms(value: string): string[] {
  const forms = [value];
  try {
    forms.push(encodeURI(value), encodeURIComponent(value), encodeURIComponent(value).replaceAll('%20', '+'));
  } catch {
    // A lone surrogate cannot be percent-encoded; the text as written is still masked.
  }
  forms.push(JSON.stringify(value).slice(1, -1));
  return forms;
}

/**
 * Every text that masks a secret: each value in each of its encoded forms, longest first (so a
 * value inside a longer one does not split it). Short values (<3 chars) are left alone to avoid
 * masking noise.
 */
export function maskedForms(secretValues: Iterable<string>): string[] {
  return [...new Set([...secretValues].filter((value) => value.length >= 3).flatMap(encodedForms))].sort(
    (a, b) => b.length - a.length,
  );
}

/** Replaces every one of `forms` (from maskedForms) in text with the mask. */
export function maskForms(text: string, forms: readonly string[]): string {
  let result = text;
  for (const form of forms) if (result.includes(form)) result = result.split(form).join(MASK);
  return result.includes('…') ? maskCutSecrets(result, forms) : result;
}

/**
 * A secret cut short where a value is shown shortened (`"Bearer eyJhbGciOi… (680 chars)"`, a
 * JWT longer than the limit): the part before the `…` is a prefix of the secret, not the
 * secret, so the whole-value replacement misses it. Any 6 or more characters just before a `…`
 * that begin a secret are masked too.
 */
function maskCutSecrets(text: string, forms: readonly string[]): string {
  let result = text;
  for (let at = result.indexOf('…'); at >= 0; at = result.indexOf('…', at + 1)) {
    for (const form of forms) {
      let kept = Math.min(form.length - 1, at);
      while (kept >= 6 && result.slice(at - kept, at) !== form.slice(0, kept)) kept--;
      if (kept >= 6) {
        result = result.slice(0, at - kept) + MASK + result.slice(at);
        at = at - kept + MASK.length;
        break;
      }
    }
  }
  return result;
}

/** Replaces every occurrence of each secret value in text, in any of its encoded forms, with the mask. */
export function redactText(text: string, secretValues: Iterable<string>): string {
  return maskForms(text, maskedForms(secretValues));
}

/** The masked form of a credential header's value: the scheme of Authorization stays readable (`Bearer ••••`). */
export function maskCredential(value: string): string {
  const scheme = /^(Basic|Bearer|Digest)\s/i.exec(value)?.[1];
  return scheme ? `${scheme} ${MASK}` : MASK;
}

/** Masks sensitive header values, and secret values inside any header. */
export function maskHeaders(headers: HeaderList, secretValues: Iterable<string> = []): HeaderList {
  const secrets = [...secretValues];
  return headers.map(([name, value]) => {
    if (SENSITIVE_HEADERS.has(name.toLowerCase())) return [name, maskCredential(value)];
    return [name, redactText(value, secrets)];
  });
}

/**
 * The secret values inside a request's credential headers (the token without its `Bearer `,
 * each cookie value), so that a server echoing them back is masked too.
 */
export function credentialValues(headers: HeaderList): string[] {
  const values: string[] = [];
  for (const [name, value] of headers) {
    if (!isSensitiveHeader(name)) continue;
    const credential = value.replace(/^(Basic|Bearer|Digest)\s+/i, '');
    values.push(credential, ...credential.split(/;\s*/).map((pair) => pair.slice(pair.indexOf('=') + 1)));
  }
  return values;
}

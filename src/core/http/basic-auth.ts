/** The Basic authorization scheme (RFC 7617), built in one place for every caller. */

/** `Basic base64(user:password)`, the user and password encoded as UTF-8. */
export function basicAuthorization(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}

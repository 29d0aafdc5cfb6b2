/** The cookie values an exchange carried, to keep them out of history (the saved jar alone holds them). */
import type { Exchange } from '../http/types.js';

/** The values of the `Cookie` header sent and of each `Set-Cookie` received. */
export function cookieValuesOf(exchange: Exchange): string[] {
  const values: string[] = [];
  const pairValue = (pair: string): string => pair.slice(pair.indexOf('=') + 1).trim();
  for (const [name, value] of exchange.request.headers)
    if (name.toLowerCase() === 'cookie') values.push(...value.split(';').map(pairValue));
  for (const [name, value] of exchange.response.headers)
    if (name.toLowerCase() === 'set-cookie') values.push(pairValue(value.split(';')[0]));
  return values.filter((value) => value.length > 0);
}

/**
 * What a request is called wherever a person reads it (the workbench, run output): its `###`
 * title, else its `# @name`, else `METHOD path`.
 */
import type { RequestNode } from './httpfile/types.js';

/**
 * The path part of a request URL template: scheme, host and a leading `{{host}}` variable dropped
 * (with the port after it: `{{host}}:{{port}}/x`, as Visual Studio templates write it, is `/x`).
 */
export function urlPath(url: string): string {
  const match = /^(?:[a-z][a-z0-9+.-]*:\/\/[^/?#]*|\{\{[^}]*\}\}(?::(?:\{\{[^}]*\}\}|\d+))?)(.*)$/i.exec(url);
  if (!match) return url;
  return match[1] || '/';
}

/** The name a person reads for a request: `### title`, else `# @name`, else `METHOD path`. */
export function displayName(request: Pick<RequestNode, 'title' | 'name' | 'method' | 'url'>): string {
  const title = request.title?.trim();
  if (title) return title;
  const name = request.name?.trim();
  if (name) return name;
  return `${request.method} ${urlPath(request.url)}`;
}

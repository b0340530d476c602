/**
 * A catalog may name an agent of this deployment by path (`/creative/mcp`, `/signals/mcp`),
 * since the file cannot know the host it will be served from.
 */

/** `/creative/mcp` is a path; `//host/x` is a host, not a path, and stays invalid. */
export function isPathForm(url: unknown): url is string {
  return typeof url === 'string' && url.startsWith('/') && !url.startsWith('//');
}

/** `url` made absolute under `base` when it is a path; anything else as it is. */
export function underBase(base: string, url: string): string {
  return isPathForm(url) ? base.replace(/\/+$/, '') + url : url;
}

export const KEYS_PATH = '/dashboard/api-keys';
export const AGENTS_PATH = '/dashboard/agents';
export const LOGIN_PATH = '/dashboard/login';

/** The dashboard's sections, as its navigation names them. */
export const SECTIONS = [
  { path: KEYS_PATH, label: 'API keys', back: 'Back to the API keys' },
  { path: AGENTS_PATH, label: 'Agents', back: 'Back to the agents' },
] as const;
export type SectionPath = (typeof SECTIONS)[number]['path'];

/**
 * Where to go after sign-in: only a path of the dashboard on this origin, so a crafted link
 * cannot turn the sign-in form into an open redirect.
 */
export function localNext(next: string): string {
  if (!next.startsWith('/') || next.startsWith('//') || next.includes('\\') || [...next].some((c) => c < ' '))
    return KEYS_PATH;
  const base = 'http://dashboard.invalid';
  const url = new URL(next, base);
  if (url.origin !== base || !(url.pathname === '/dashboard' || url.pathname.startsWith('/dashboard/')))
    return KEYS_PATH;
  return url.pathname + url.search;
}

/** The sign-in page, coming back to `path` afterwards; slashes stay readable in the query. */
export function loginLocation(path: string): string {
  return `${LOGIN_PATH}?next=${encodeURIComponent(path).replaceAll('%2F', '/')}`;
}

/** A section's page for one organization. */
export function sectionLocation(section: SectionPath, organizationSlug: string): string {
  return `${section}?org=${encodeURIComponent(organizationSlug)}`;
}

export const keysLocation = (organizationSlug: string): string => sectionLocation(KEYS_PATH, organizationSlug);
export const agentsLocation = (organizationSlug: string): string => sectionLocation(AGENTS_PATH, organizationSlug);

/** One enrolled agent's page: its URL travels in the query, as the API's `agent_url` does. */
export function agentLocation(organizationSlug: string, agentUrl: string): string {
  return `${AGENTS_PATH}/manage?org=${encodeURIComponent(organizationSlug)}&agent_url=${encodeURIComponent(agentUrl)}`;
}

import type { MembershipRow } from '../auth/index.ts';
import { escapeHtml, page } from '../http/html.ts';
import { SECTIONS, sectionLocation, type SectionPath } from './navigation.ts';
import type { Session } from './sessions.ts';

/** Pieces every signed-in page of the dashboard shares; every value from outside goes through escapeHtml. */

// The shared page is sized for a sign-in form; a table of several columns needs more room.
const WIDE =
  '<style>body{max-width:64rem}time,code{white-space:nowrap}td button{margin:0}select{font:inherit;padding:.4rem;margin-right:.5rem}' +
  'input[type=url],textarea{width:100%;padding:.5rem;font:inherit;box-sizing:border-box}</style>';

export function signedInAs(session: Session): string {
  return `<form method="post" action="/dashboard/logout"><p>Signed in as ${escapeHtml(session.displayName)}.
${csrfField(session)}<button type="submit">Sign out</button></p></form>`;
}

/** Links between the dashboard's sections, for the organization shown; the current one is not a link. */
function sectionNav(current: SectionPath, organizationSlug: string): string {
  const links = SECTIONS.map(({ path, label }) =>
    path === current
      ? `<strong aria-current="page">${label}</strong>`
      : `<a href="${escapeHtml(sectionLocation(path, organizationSlug))}">${label}</a>`,
  );
  return `<nav aria-label="Dashboard"><p>${links.join(' · ')}</p></nav>`;
}

/** The user's organizations, each a link to the same section (`locate` gives its address) for that organization. */
function organizationPicker(
  memberships: MembershipRow[],
  current: MembershipRow,
  locate: (slug: string) => string,
): string {
  if (memberships.length < 2) return '';
  const links = memberships.map((m) =>
    m.organization_id === current.organization_id
      ? `<strong aria-current="page">${escapeHtml(m.name)}</strong>`
      : `<a href="${escapeHtml(locate(m.slug))}">${escapeHtml(m.name)}</a>`,
  );
  return `<nav aria-label="Organizations"><p>Organization: ${links.join(' · ')}</p></nav>`;
}

/**
 * The top of a section's page for one organization: who is signed in, the sections and, given the
 * user's memberships, the organizations to switch to.
 */
export function sectionTop(
  section: SectionPath,
  session: Session,
  current: MembershipRow,
  memberships?: MembershipRow[],
): string {
  const picker = memberships
    ? [organizationPicker(memberships, current, (slug) => sectionLocation(section, slug))]
    : [];
  return [`${WIDE}${signedInAs(session)}`, sectionNav(section, current.slug), ...picker].join('\n');
}

/** A table that scrolls sideways on a narrow screen, or `empty` when it has no rows. */
export function table(headings: string[], rows: string[], empty: string): string {
  if (rows.length === 0) return `<p>${empty}</p>`;
  return `<div class="scroll"><table>
<thead><tr>${headings.map((h) => `<th>${h}</th>`).join('')}</tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table></div>`;
}

export function errorLine(error: string | undefined): string {
  return error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : '';
}

export function csrfField(session: Session): string {
  return `<input type="hidden" name="csrf" value="${escapeHtml(session.csrfToken)}">`;
}

/** Timestamps come back as Date from both engines, though some row types say string. */
export function when(value: string | Date): string {
  const iso = new Date(value).toISOString();
  return `<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}

/** A page of the dashboard: the site's layout, the dashboard marked in its navigation (`narrow`: a form alone). */
export function dashboardPage(title: string, body: string, narrow = false): string {
  return page(title, body, { section: '/dashboard', narrow });
}

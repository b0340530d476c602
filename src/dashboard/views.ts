import type { MembershipRow, ApiKeyRow } from '../auth/index.ts';
import { escapeHtml, signInForm } from '../http/html.ts';
import { KEYS_PATH, LOGIN_PATH, SECTIONS, keysLocation, type SectionPath } from './navigation.ts';
import { csrfField, dashboardPage, errorLine, sectionTop, signedInAs, table, when } from './page-parts.ts';
import { mayRevoke, rolesOffered } from './permissions.ts';
import type { Session } from './sessions.ts';

/** The dashboard's pages: plain forms, no script; every value from outside goes through escapeHtml. */

export function loginView(options: { next: string; error?: string; email?: string }): string {
  return dashboardPage(
    'Sign in',
    signInForm(LOGIN_PATH, { error: options.error, email: options.email, hidden: { next: options.next } }),
    true,
  );
}

export interface KeysViewInput {
  session: Session;
  memberships: MembershipRow[];
  current: MembershipRow;
  keys: ApiKeyRow[];
  error?: string;
  /** The name typed into a create form that was refused, so it is not lost. */
  name?: string;
}

export function keysView({ session, memberships, current, keys, error, name }: KeysViewInput): string {
  const rows = keys.map((key) => keyRow(key, current, session));
  const headings = ['Name', 'Key', 'Role', 'Created', 'Last used', 'Status'];
  return dashboardPage(
    'API keys',
    `${sectionTop(KEYS_PATH, session, current, memberships)}
<p>Keys of <strong>${escapeHtml(current.name)}</strong> act for the organization from your servers:
send <code>Authorization: Bearer &lt;key&gt;</code>. Your role here: ${escapeHtml(current.role)}.</p>
${errorLine(error)}
${table(headings, rows, 'This organization has no API keys yet.')}
<h2>Create a key</h2>
${createForm(current, session, name)}`,
  );
}

export function createdKeyView(input: { session: Session; key: string; record: ApiKeyRow }): string {
  const { session, key, record } = input;
  return dashboardPage(
    'Your new API key',
    `${signedInAs(session)}
<p>The key <strong>${escapeHtml(record.name)}</strong> (${escapeHtml(record.role)}) of <strong>${escapeHtml(record.organization_slug)}</strong> is ready.</p>
<p role="alert"><strong>Copy it now: it will not be shown again.</strong> Only a hash of it is kept, so nobody can show it to you later;
if it is lost, revoke it and create another.</p>
<p><code id="new-key">${escapeHtml(key)}</code></p>
<p>Use it as <code>Authorization: Bearer &lt;key&gt;</code>.</p>
<p><a href="${escapeHtml(keysLocation(record.organization_slug))}">Back to the API keys</a></p>`,
  );
}

/** A page that only explains something: a refusal, or a lack of organizations; `back` is the section to return to, or none. */
export function messageView(
  title: string,
  message: string,
  options: { session?: Session; back?: SectionPath | false } = {},
): string {
  const { session, back = KEYS_PATH } = options;
  const section = back && SECTIONS.find((s) => s.path === back);
  return dashboardPage(
    title,
    `${session ? signedInAs(session) : ''}<p>${escapeHtml(message)}</p>
${section ? `<p><a href="${section.path}">${section.back}</a></p>` : ''}`,
  );
}

function keyRow(key: ApiKeyRow, current: MembershipRow, session: Session): string {
  let status = 'active';
  if (key.revoked_at !== null) status = `revoked ${when(key.revoked_at)}`;
  else if (mayRevoke(current, key, session.userId)) {
    status = `<form method="post" action="${KEYS_PATH}/${escapeHtml(key.id)}/revoke">${csrfField(session)}<button type="submit">Revoke</button></form>`;
  }
  return `<tr><td>${escapeHtml(key.name)}</td><td>${shownKey(key.prefix)}</td><td>${escapeHtml(key.role)}</td><td>${when(key.created_at)}</td><td>${key.last_used_at === null ? 'never' : when(key.last_used_at)}</td><td>${status}</td></tr>`;
}

// Minted keys have a 12-hex prefix; the operator's AP_ADMIN_KEY is looked up by a hash-derived one
// and does not look like `ap_…` at all, so showing it as one would mislead.
function shownKey(prefix: string): string {
  return /^[0-9a-f]{12}$/.test(prefix)
    ? `<code>ap_${escapeHtml(prefix)}_…</code>`
    : 'set by the server’s configuration';
}

function createForm(current: MembershipRow, session: Session, name = ''): string {
  const roles = rolesOffered(current);
  const role =
    roles.length > 1
      ? `<label for="role">Role</label><select id="role" name="role">${roles.map((r) => `<option value="${r}">${r}</option>`).join('')}</select>`
      : '<p>Keys you create have the member role; an organization admin can create admin keys.</p>';
  return `<form method="post" action="${KEYS_PATH}">${csrfField(session)}<input type="hidden" name="org" value="${escapeHtml(current.slug)}">
<label for="name">Name</label><input id="name" name="name" type="text" required maxlength="100" value="${escapeHtml(name)}">
${role}
<button type="submit">Create key</button>
</form>`;
}

import type { MembershipRow } from '../auth/index.ts';
import { escapeHtml } from '../http/html.ts';
import {
  agentTypes,
  DESCRIPTION_MAX,
  NAME_MAX,
  visibilities,
  type AgentRow,
  type ProbeState,
} from '../registry/agents/index.ts';
import { AGENTS_PATH, agentLocation, agentsLocation, keysLocation } from './navigation.ts';
import { csrfField, dashboardPage, errorLine, sectionTop, table, when } from './page-parts.ts';
import type { Session } from './sessions.ts';

/** The pages of an organization's enrolled agents: plain forms, no script; every value from outside goes through escapeHtml. */

/** What the enroll or change form was sent with, shown again when it is refused so nothing typed is lost. */
export interface AgentFormValues {
  agent_url?: string;
  type?: string;
  name?: string;
  description?: string;
  visibility?: string;
}

/** Why an enrollment needs a proof first, and where to get one. */
export interface ProofHint {
  host: string;
  proofDays: number;
}

export interface AgentsViewInput {
  session: Session;
  memberships: MembershipRow[];
  current: MembershipRow;
  agents: AgentRow[];
  probes: Map<string, ProbeState>;
  error?: string;
  proof?: ProofHint;
  values?: AgentFormValues;
}

const VISIBILITY_MEANS: Record<string, string> = {
  public: 'everyone sees it in the catalog',
  members_only: 'only paying member organizations (and yours) see it',
  private: 'only your organization sees it',
};

export function agentsView({
  session,
  memberships,
  current,
  agents,
  probes,
  error,
  proof,
  values,
}: AgentsViewInput): string {
  const rows = agents.map((agent) => agentRow(agent, probes.get(agent.agent_url), current));
  const headings = ['Agent', 'Type', 'Visibility', 'Enrolled', 'Health', 'Compliance', 'Verified', ''];
  return dashboardPage(
    'Agents',
    `${sectionTop(AGENTS_PATH, session, current, memberships)}
<p>The agents <strong>${escapeHtml(current.name)}</strong> operates, in the registry’s catalog whatever their visibility.
The registry probes each one (health, capabilities, compliance) after it is enrolled and then regularly.</p>
${table(headings, rows, 'This organization has enrolled no agents yet.')}
<h2>Enroll an agent</h2>
<p>Its host must be one your organization has proven control of (the host itself or a domain above it).</p>
${errorLine(error)}
${proof ? proofHelp(proof, current) : ''}
${enrollForm(current, session, values)}`,
  );
}

export interface AgentViewInput {
  session: Session;
  current: MembershipRow;
  agent: AgentRow;
  probe: ProbeState | undefined;
  error?: string;
  values?: AgentFormValues;
}

export function agentView({ session, current, agent, probe, error, values }: AgentViewInput): string {
  const shown = {
    type: agent.type,
    name: agent.name,
    description: agent.description ?? '',
    visibility: agent.visibility,
    ...values,
  };
  const hidden = `${csrfField(session)}<input type="hidden" name="org" value="${escapeHtml(current.slug)}"><input type="hidden" name="agent_url" value="${escapeHtml(agent.agent_url)}">`;
  return dashboardPage(
    agent.name,
    `${sectionTop(AGENTS_PATH, session, current)}
<p><code>${escapeHtml(agent.agent_url)}</code>, enrolled ${when(agent.enrolled_at)} by <strong>${escapeHtml(current.name)}</strong>, last changed ${when(agent.updated_at)}.</p>
${probeSummary(probe)}
${errorLine(error)}
<h2>Change it</h2>
<form method="post" action="${AGENTS_PATH}/change">${hidden}
${profileFields(shown)}
<button type="submit">Save changes</button>
</form>
<h2>Remove it</h2>
<form method="post" action="${AGENTS_PATH}/remove">${hidden}
<p>Removing takes the agent out of the catalog with its probe results${agent.visibility === 'public' ? '; the change feed announces it as removed' : ''}. It can be enrolled again later.</p>
<label><input type="checkbox" name="confirm" value="yes" required> Yes, remove ${escapeHtml(agent.name)} from the catalog</label>
<button type="submit">Remove agent</button>
</form>
<p><a href="${escapeHtml(agentsLocation(current.slug))}">Back to the agents</a></p>`,
  );
}

function agentRow(agent: AgentRow, probe: ProbeState | undefined, current: MembershipRow): string {
  return (
    `<tr><td>${escapeHtml(agent.name)}<br><code>${escapeHtml(agent.agent_url)}</code></td><td>${escapeHtml(agent.type)}</td><td>${escapeHtml(agent.visibility)}</td><td>${when(agent.enrolled_at)}</td>` +
    `<td>${health(probe)}</td><td>${probe && probe.health.reachable !== null ? escapeHtml(probe.compliance.status) : '—'}</td><td>${verified(probe)}</td>` +
    `<td><a href="${escapeHtml(agentLocation(current.slug, agent.agent_url))}" aria-label="Manage ${escapeHtml(agent.name)}">Manage</a></td></tr>`
  );
}

function health(probe: ProbeState | undefined): string {
  if (!probe || probe.health.reachable === null) return 'not probed yet';
  if (!probe.health.reachable) return 'unreachable';
  return probe.health.latency_ms === undefined ? 'reachable' : `reachable (${probe.health.latency_ms} ms)`;
}

function verified(probe: ProbeState | undefined): string {
  if (!probe?.verification.verified) return 'no';
  return probe.verification.role ? `yes (${escapeHtml(probe.verification.role)})` : 'yes';
}

/** On the agent's own page: the same states, with why a probe failed and which checks did not pass. */
function probeSummary(probe: ProbeState | undefined): string {
  if (!probe || probe.health.reachable === null) return '<p>Probing: not probed yet.</p>';
  const failed = probe.compliance.checks.filter((c) => !c.passed && !c.skipped);
  return `<p>Probing: ${health(probe)}${probe.health.error ? ` (${escapeHtml(probe.health.error)})` : ''}, last ${probe.health.last_probed_at ? when(probe.health.last_probed_at) : 'never'};
compliance ${escapeHtml(probe.compliance.status)}; verified ${verified(probe)}${probe.verification.reason ? ` (${escapeHtml(probe.verification.reason)})` : ''}.</p>
${failed.length ? `<ul>${failed.map((c) => `<li>${escapeHtml(c.name)}: ${escapeHtml(c.message)}</li>`).join('')}</ul>` : ''}`;
}

function proofHelp({ host, proofDays }: ProofHint, current: MembershipRow): string {
  const h = escapeHtml(host);
  return `<div role="note"><p><strong>How to prove control of ${h}</strong> (once, for ${proofDays} days; a proof of a domain above it covers it too):</p>
<ol>
<li>Use an API key of ${escapeHtml(current.name)} (<a href="${escapeHtml(keysLocation(current.slug))}">create one on the API keys page</a>).</li>
<li>Ask for a challenge: <code>POST /api/ownership/challenges</code> with <code>{"domain": "${h}"}</code>.</li>
<li>Publish the nonce it returns as a DNS TXT record at <code>_ap-owner.${h}</code>, or on a line of <code>https://${h}/.well-known/ap-ownership.txt</code>.</li>
<li>Verify: <code>POST /api/ownership/challenges/{id}/verify</code> with <code>{"method": "dns"}</code> or <code>{"method": "http"}</code>, then enroll again here.</li>
</ol>
<p>The <a href="/docs">API documentation</a> describes both calls.</p></div>`;
}

function enrollForm(current: MembershipRow, session: Session, values: AgentFormValues = {}): string {
  return `<form method="post" action="${AGENTS_PATH}">${csrfField(session)}<input type="hidden" name="org" value="${escapeHtml(current.slug)}">
<label for="agent_url">Agent URL (its MCP or A2A endpoint)</label><input id="agent_url" name="agent_url" type="url" required maxlength="2048" placeholder="https://agent.example.com/mcp" value="${escapeHtml(values.agent_url ?? '')}">
${profileFields({ visibility: 'public', ...values })}
<button type="submit">Enroll agent</button>
</form>`;
}

/** The fields enrolling and changing share. */
function profileFields(values: AgentFormValues): string {
  const option = (value: string, chosen: string | undefined, label = value) =>
    `<option value="${value}"${value === chosen ? ' selected' : ''}>${escapeHtml(label)}</option>`;
  return `<label for="type">Type</label><select id="type" name="type" required>${values.type ? '' : '<option value="">Choose…</option>'}${agentTypes.map((t) => option(t, values.type)).join('')}</select>
<label for="name">Name</label><input id="name" name="name" type="text" required maxlength="${NAME_MAX}" value="${escapeHtml(values.name ?? '')}">
<label for="description">Description (optional)</label><textarea id="description" name="description" rows="3" maxlength="${DESCRIPTION_MAX}">${escapeHtml(values.description ?? '')}</textarea>
<label for="visibility">Visibility</label><select id="visibility" name="visibility">${visibilities.map((v) => option(v, values.visibility, `${v}: ${VISIBILITY_MEANS[v]}`)).join('')}</select>`;
}

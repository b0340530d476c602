-- Why: saves of a domain need proof that the caller's organization controls it. A challenge is a
-- single-use nonce for one (organization, domain), alive 15 minutes; verification consumes it on
-- success and invalidates it on failure. A proof is remembered per (organization, domain) so
-- later revisions within the re-proof window need none.
create table ownership_challenges (
  id uuid primary key,
  organization_id uuid not null references organizations (id) on delete cascade,
  domain text not null,
  nonce text not null unique,
  state text not null check (state in ('issued', 'verifying', 'consumed', 'invalidated')),
  method text check (method in ('dns', 'http')),
  issued_at timestamptz not null,
  expires_at timestamptz not null,
  decided_at timestamptz,
  failure text
);
create index ownership_challenges_pair on ownership_challenges (organization_id, domain, issued_at desc);

create table ownership_proofs (
  organization_id uuid not null references organizations (id) on delete cascade,
  domain text not null,
  method text not null check (method in ('dns', 'http')),
  proved_at timestamptz not null,
  primary key (organization_id, domain)
);

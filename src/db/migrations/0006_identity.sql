-- Why: credentials act for people and organizations. An organization holds members (with a role)
-- and API keys; `api_tier` marks paying members (members_only visibility) and `is_admin` marks
-- the registry operator's own organization, whose members and keys may do admin-only actions.
create table organizations (
  id uuid primary key,
  slug text not null unique check (slug ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
  name text not null,
  api_tier boolean not null default false,
  is_admin boolean not null default false,
  created_at timestamptz not null default now()
);

-- A user is known by the issuer that vouches for them and that issuer's subject: local users are
-- vouched for by this service (password set here); an external identity provider's users are
-- created on first sight of their token, and memberships are granted here.
create table users (
  id uuid primary key,
  issuer text not null,
  subject text not null,
  email text,
  display_name text not null,
  password_hash text,
  created_at timestamptz not null default now(),
  unique (issuer, subject)
);
create unique index users_local_email on users (lower(email)) where password_hash is not null;

create table memberships (
  organization_id uuid not null references organizations (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  role text not null check (role in ('member', 'admin')),
  created_at timestamptz not null default now(),
  primary key (organization_id, user_id)
);
create index memberships_user on memberships (user_id, created_at);

-- Only a hash of each key is kept; the prefix finds the row, the hash proves the key.
create table api_keys (
  id uuid primary key,
  organization_id uuid not null references organizations (id) on delete cascade,
  name text not null,
  prefix text not null unique,
  key_hash bytea not null,
  role text not null check (role in ('member', 'admin')),
  created_by uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
create index api_keys_organization on api_keys (organization_id, created_at);

-- Sessions of the dashboard's own sign-in; the cookie holds a random token, this its hash.
create table dashboard_sessions (
  token_hash bytea primary key,
  user_id uuid not null references users (id) on delete cascade,
  csrf_token text not null,
  expires_at timestamptz not null
);
create index dashboard_sessions_expiry on dashboard_sessions (expires_at);

-- The OAuth server's state (clients, codes, grants, sessions, interactions), shared by every
-- instance so a flow may start on one and finish on another.
create table oauth_records (
  model text not null,
  id text not null,
  payload jsonb not null,
  grant_id text,
  user_code text,
  uid text,
  expires_at timestamptz,
  consumed_at timestamptz,
  primary key (model, id)
);
create index oauth_records_grant on oauth_records (grant_id) where grant_id is not null;
create index oauth_records_uid on oauth_records (uid) where uid is not null;
create index oauth_records_expiry on oauth_records (expires_at) where expires_at is not null;

-- Secrets every instance must share (token signing keys, cookie keys), made once at first start.
create table identity_secrets (
  name text primary key,
  value jsonb not null,
  created_at timestamptz not null default now()
);

-- Why: agents sign their webhooks (RFC 9421) with keys made at first start and shared by every
-- instance. The private half is sealed with the operator's secret when one is configured; a
-- retired key stays published until no signature made with it can still be valid.
create table agent_signing_keys (
  kid text primary key,
  alg text not null check (alg in ('ed25519', 'ecdsa-p256-sha256')),
  public_jwk jsonb not null,
  -- The private JWK as JSON, or `sealed:v1:<iv>:<tag>:<ciphertext>` (AES-256-GCM) with a secret.
  private_key text not null,
  created_at timestamptz not null,
  retired_at timestamptz
);

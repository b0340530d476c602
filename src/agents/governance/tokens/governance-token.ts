import { createPrivateKey, randomBytes, sign, type JsonWebKey, type KeyObject } from 'node:crypto';
import { compactVerify, createLocalJWKSet, decodeProtectedHeader, type JWK } from 'jose';

/** What a token approves: the buyer's intended action, or a phase of the seller's execution. */
export type TokenPhase = 'intent' | 'purchase' | 'modification' | 'delivery';

/** The media type a governance approval declares in its header (`typ`), so no other JWT passes for one. */
export const governanceTokenType = 'ap-governance+jwt';

/** Intent approvals are short-lived (the protocol asks within 15 minutes); execution approvals last the day. */
export const intentTokenSeconds = 15 * 60;
export const executionTokenSeconds = 24 * 3600;

/**
 * The claims of a signed `governance_context` (compact JWS, EdDSA): who issued it (the governance
 * agent's MCP URL), for which plan (`sub`), for which seller (`aud`, when the buyer named one), for
 * which phase, until when, over which plan state (`plan_hash`), and which governed action it
 * belongs to (`ap_action`; `ap_plan` is the agent's own key of the plan).
 */
export interface GovernanceClaims {
  iss: string;
  sub: string;
  aud?: string | string[];
  phase: TokenPhase;
  jti: string;
  iat: number;
  exp: number;
  plan_hash: string;
  check_id: string;
  ap_action: string;
  ap_plan: string;
  media_buy_id?: string;
}

/**
 * A governance key ready to sign: its `kid`, the private key, and the encoded protected headers
 * of what it signs. A check signs with it on the request's path: Node's one-shot Ed25519 sign
 * takes tens of microseconds where a WebCrypto job (a thread-pool round trip) takes far more, so
 * the compact serialization (RFC 7515 §7.1: three base64url parts) is assembled here; tokens are
 * verified with jose, as sellers verify them.
 */
export interface TokenSigner {
  kid: string;
  key: KeyObject;
  tokenHeader: string;
  detachedHeader: string;
}

const base64url = (value: string | Uint8Array) => Buffer.from(value).toString('base64url');

/** Imports a private Ed25519 JWK (with `kid`) once, for every token it will sign. */
export function tokenSigner(privateJwk: JWK & { kid: string }): TokenSigner {
  const { kid } = privateJwk;
  return {
    kid,
    key: createPrivateKey({ key: privateJwk as JsonWebKey, format: 'jwk' }),
    tokenHeader: base64url(JSON.stringify({ alg: 'EdDSA', kid, typ: governanceTokenType })),
    detachedHeader: base64url(JSON.stringify({ alg: 'EdDSA', kid })),
  };
}

function compactJws(signer: TokenSigner, header: string, payload: string): { signingInput: string; signature: string } {
  const signingInput = `${header}.${payload}`;
  return { signingInput, signature: sign(null, Buffer.from(signingInput), signer.key).toString('base64url') };
}

/** Signs claims with the governance key. */
export function signGovernanceToken(signer: TokenSigner, claims: Omit<GovernanceClaims, 'jti'>): string {
  const jti = randomBytes(16).toString('base64url');
  const { signingInput, signature } = compactJws(
    signer,
    signer.tokenHeader,
    base64url(JSON.stringify({ ...claims, jti })),
  );
  return `${signingInput}.${signature}`;
}

/**
 * A compact JWS of `payload` with the payload detached (RFC 7515 appendix F: `header..signature`),
 * signed with the governance key: what a governance webhook carries in its `signature` field, over
 * the RFC 8785 form of its body without that field.
 */
export function signDetached(signer: TokenSigner, payload: Uint8Array): string {
  const { signature } = compactJws(signer, signer.detachedHeader, base64url(payload));
  return `${signer.detachedHeader}..${signature}`;
}

/** Why a token was refused; the seller answers PERMISSION_DENIED with it. */
export class GovernanceTokenError extends Error {
  override readonly name = 'GovernanceTokenError';
}

export interface VerifyOptions {
  /** The issuer's published keys (its JWKS); only those for governance approvals count. */
  keys: readonly JWK[];
  /** The governance agent that must have issued it (its MCP URL). */
  issuer: string;
  /** The plan it must be for. */
  planId?: string;
  /** The phases accepted. */
  phases?: readonly TokenPhase[];
  /** This seller: a token addressed to others is refused; one addressed to no seller binds by plan alone. */
  audience?: string;
  /** Now, by the caller's clock; expiry is not checked without it (the agent correlating its own old tokens). */
  now?: Date;
}

const maxTokenLength = 8192;
const skewSeconds = 60;

/**
 * Verifies a `governance_context` as a seller does: the header (EdDSA, a governance `typ`, a
 * `kid` of the issuer's governance keys), the signature, then the claims (issuer, plan, phase,
 * audience, freshness). Throws a GovernanceTokenError saying which check failed.
 */
export async function verifyGovernanceToken(token: string, options: VerifyOptions): Promise<GovernanceClaims> {
  if (token.length > maxTokenLength || token.split('.').length !== 3)
    throw new GovernanceTokenError('governance_context is not a compact JWS');
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    throw new GovernanceTokenError('governance_context has an unreadable header');
  }
  if (header.alg !== 'EdDSA' || header.typ !== governanceTokenType || typeof header.kid !== 'string')
    throw new GovernanceTokenError(`governance_context must be an EdDSA ${governanceTokenType} with a kid`);
  const keys = options.keys.filter((k) => (k as { ap_use?: unknown }).ap_use === 'governance-signing');
  let payload: Uint8Array;
  try {
    ({ payload } = await compactVerify(token, createLocalJWKSet({ keys: [...keys] }), { algorithms: ['EdDSA'] }));
  } catch {
    throw new GovernanceTokenError('governance_context is not signed by a governance key of its issuer');
  }
  const claims = readClaims(payload);
  if (claims.iss !== options.issuer) throw new GovernanceTokenError('governance_context was issued by another agent');
  if (options.planId !== undefined && claims.sub !== options.planId)
    throw new GovernanceTokenError('governance_context was issued for another plan');
  if (options.phases && !options.phases.includes(claims.phase))
    throw new GovernanceTokenError(`governance_context is a ${claims.phase} token, not ${options.phases.join(' or ')}`);
  if (options.audience !== undefined && claims.aud !== undefined) {
    const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (!audiences.includes(options.audience))
      throw new GovernanceTokenError('governance_context is addressed to another seller');
  }
  if (options.now) {
    const now = Math.floor(options.now.getTime() / 1000);
    if (claims.exp + skewSeconds < now) throw new GovernanceTokenError('governance_context has expired');
    if (claims.iat - skewSeconds > now) throw new GovernanceTokenError('governance_context is issued in the future');
  }
  return claims;
}

/** The claims of a token whose signature was checked: each of the shape we issue, or the token is refused. */
function readClaims(payload: Uint8Array): GovernanceClaims {
  let claims: unknown;
  try {
    claims = JSON.parse(new TextDecoder().decode(payload));
  } catch {
    throw new GovernanceTokenError('governance_context carries no JSON claims');
  }
  const c = claims as Record<string, unknown>;
  const strings = ['iss', 'sub', 'jti', 'plan_hash', 'check_id', 'ap_action', 'ap_plan'] as const;
  const phases: readonly unknown[] = ['intent', 'purchase', 'modification', 'delivery'];
  if (
    typeof claims !== 'object' ||
    claims === null ||
    strings.some((name) => typeof c[name] !== 'string') ||
    !phases.includes(c['phase']) ||
    typeof c['iat'] !== 'number' ||
    typeof c['exp'] !== 'number'
  )
    throw new GovernanceTokenError('governance_context lacks the claims of a governance approval');
  return claims as GovernanceClaims;
}

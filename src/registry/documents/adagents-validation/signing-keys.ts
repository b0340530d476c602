import { createPublicKey, type JsonWebKey } from 'node:crypto';
import type { PathSegment } from '../../../protocol/json-path.ts';
import { isRecord, items } from '../../../protocol/json-values.ts';
import type { Report } from './findings.ts';

// Members that only a private (or symmetric) JWK has: publishing one publishes the secret.
const privateMembers = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];
const requiredMembers: Record<string, string[]> = { OKP: ['crv', 'x'], EC: ['crv', 'x', 'y'], RSA: ['n', 'e'] };
// Decoded sizes of the coordinates, where the curve fixes them.
const coordinateBytes: Record<string, number> = {
  Ed25519: 32,
  Ed448: 57,
  'P-256': 32,
  'P-384': 48,
  'P-521': 66,
  secp256k1: 32,
};
const signingCurves: Record<string, string[]> = {
  OKP: ['Ed25519', 'Ed448'],
  EC: ['P-256', 'P-384', 'P-521', 'secp256k1'],
};
const base64url = /^[A-Za-z0-9_-]+$/;

/**
 * The publisher-attested keys of each agent (`authorized_agents[].signing_keys`, JWKs whose
 * schema asks only for kid and kty): public members only, the members the key type needs, a key
 * Node can actually import, and kids unique within the agent's list. What the schema already
 * refuses (not an object, kid or kty missing or not a string) is left to it.
 */
export function checkSigningKeys(agents: unknown[], report: Report): void {
  agents.forEach((agent, index) => {
    if (!isRecord(agent)) return;
    const kids = new Map<string, number>();
    items(agent['signing_keys']).forEach((key, position) => {
      if (!isRecord(key)) return;
      const at = ['authorized_agents', index, 'signing_keys', position];
      const kid = key['kid'];
      if (typeof kid === 'string') {
        const earlier = kids.get(kid);
        if (earlier !== undefined)
          report(
            'duplicate_signing_key_id',
            [...at, 'kid'],
            `"${kid}" is also the kid of signing_keys[${earlier}]; a verifier cannot tell which key to use`,
          );
        else kids.set(kid, position);
      }
      checkKey(key, at, report);
    });
  });
}

function checkKey(key: Record<string, unknown>, at: PathSegment[], report: Report): void {
  const secret = privateMembers.filter((member) => Object.hasOwn(key, member));
  if (secret.length > 0) {
    report(
      'signing_key_private_material',
      [...at, secret[0]!],
      `has private members (${secret.join(', ')}): this publishes the private key; rotate it and publish only the public part`,
    );
    return;
  }
  const kty = key['kty'];
  if (typeof kty !== 'string') return;
  const required = requiredMembers[kty];
  if (!required) {
    report(
      'signing_key_unsupported_type',
      [...at, 'kty'],
      `"${kty}" is not a public signing key type (OKP, EC or RSA)`,
    );
    return;
  }
  const missing = required.filter((member) => typeof key[member] !== 'string');
  if (missing.length > 0) {
    report('signing_key_missing_member', at, `a ${kty} key needs ${missing.join(' and ')}`);
    return;
  }
  const crv = typeof key['crv'] === 'string' ? key['crv'] : undefined;
  if (crv !== undefined && !signingCurves[kty]?.includes(crv)) {
    report(
      'signing_key_invalid',
      [...at, 'crv'],
      `"${crv}" is not a signing curve for ${kty} (${signingCurves[kty]!.join(', ')})`,
    );
    return;
  }
  for (const member of required.filter((m) => m !== 'crv')) {
    const value = key[member] as string;
    if (!base64url.test(value)) {
      report('signing_key_invalid', [...at, member], 'is not base64url (no padding, - and _ for + and /)');
      return;
    }
    const size = crv === undefined ? undefined : coordinateBytes[crv];
    if (size !== undefined && Buffer.from(value, 'base64url').length !== size) {
      report(
        'signing_key_invalid',
        [...at, member],
        `decodes to ${Buffer.from(value, 'base64url').length} bytes; a ${crv} coordinate has ${size}`,
      );
      return;
    }
  }
  if (!importable(key, required)) {
    report(
      'signing_key_invalid',
      at,
      `is not a usable ${kty} public key${kty === 'EC' ? ' (the point is not on the curve)' : ''}`,
    );
    return;
  }
  checkUse(key, crv, at, report);
}

function importable(key: Record<string, unknown>, members: string[]): boolean {
  const jwk: JsonWebKey = { kty: key['kty'] as string };
  for (const member of members) jwk[member] = key[member];
  try {
    createPublicKey({ key: jwk, format: 'jwk' });
    return true;
  } catch {
    return false;
  }
}

function checkUse(key: Record<string, unknown>, crv: string | undefined, at: PathSegment[], report: Report): void {
  const alg = key['alg'];
  if (typeof alg === 'string' && !algorithmFits(key['kty'] as string, crv, alg)) {
    report('signing_key_algorithm_mismatch', [...at, 'alg'], `${alg} does not sign with a ${crv ?? key['kty']} key`);
  }
  const use = key['use'];
  if (typeof use === 'string' && use !== 'sig')
    report('signing_key_not_for_signing', [...at, 'use'], `is "${use}"; a signing key's use is "sig"`);
}

function algorithmFits(kty: string, crv: string | undefined, alg: string): boolean {
  if (kty === 'OKP') return alg === 'EdDSA' || alg === crv;
  if (kty === 'EC')
    return { 'P-256': 'ES256', 'P-384': 'ES384', 'P-521': 'ES512', secp256k1: 'ES256K' }[crv ?? ''] === alg;
  return /^(RS|PS)(256|384|512)$/.test(alg);
}

import { isRecord } from '../../../protocol/json-values.ts';
import type { ComplianceCheck } from './compliance.ts';

/** A badge role (enums/ap-protocol.json, the feed's `badgeRole`). */
export type BadgeRole = 'media-buy' | 'signals' | 'governance' | 'creative' | 'brand' | 'sponsored-intelligence';

/** Catalog types (registry_agents.type) and the protocol their badge is for; measurement and buying have none. */
const roleOfType: Record<string, BadgeRole | undefined> = {
  sales: 'media-buy',
  signals: 'signals',
  creative: 'creative',
  governance: 'governance',
  brand: 'brand',
  rights: 'brand',
};

/** The protocol each specialism (enums/specialism.json) rolls up to. */
const roleOfSpecialism: Record<string, BadgeRole> = {
  'audience-sync': 'media-buy',
  'governance-aware-seller': 'media-buy',
  'sales-broadcast-tv': 'media-buy',
  'sales-catalog-driven': 'media-buy',
  'sales-guaranteed': 'media-buy',
  'sales-non-guaranteed': 'media-buy',
  'sales-proposal-mode': 'media-buy',
  'sales-social': 'media-buy',
  'signal-marketplace': 'signals',
  'signal-owned': 'signals',
  'creative-ad-server': 'creative',
  'creative-generative': 'creative',
  'creative-template': 'creative',
  'collection-lists': 'governance',
  'content-standards': 'governance',
  'governance-delivery-monitor': 'governance',
  'governance-spend-authority': 'governance',
  'property-lists': 'governance',
  'brand-rights': 'brand',
};

export interface Verification {
  verified: boolean;
  /** The role the badge is (or would be) for; undefined for a type that has none. */
  role: BadgeRole | undefined;
  /** The specialisms the badge names: those declared that roll up to the role. */
  specialisms: string[];
  /** Why it is not verified. */
  reason?: string;
  /** The AP major version the capabilities declare, for the events' `ap_version`. */
  apVersion?: string;
}

/**
 * Whether an agent holds the verified badge (docs/decisions.md): every compliance check passes, its
 * capabilities declare the protocol of the role its catalog type implies, and at least one
 * specialism of that protocol (the badge names the specialisms it covers, at least one).
 */
export function verify(type: string, checks: readonly ComplianceCheck[], capabilities: unknown): Verification {
  const role = roleOfType[type];
  const doc = isRecord(capabilities) ? capabilities : {};
  const declared = Array.isArray(doc['specialisms'])
    ? doc['specialisms'].filter((s): s is string => typeof s === 'string')
    : [];
  const specialisms = role ? declared.filter((s) => roleOfSpecialism[s] === role) : [];
  const versions =
    isRecord(doc['ap']) && Array.isArray(doc['ap']['major_versions'])
      ? doc['ap']['major_versions'].filter((v): v is number => typeof v === 'number')
      : [];
  const apVersion = versions.length > 0 ? String(Math.max(...versions)) : undefined;
  const base = { role, specialisms, ...(apVersion ? { apVersion } : {}) };
  if (!role) return { ...base, verified: false, reason: `a ${type} agent has no badge role` };
  const failed = checks.find((c) => !c.passed);
  if (failed) return { ...base, verified: false, reason: `compliance check ${failed.name} failed: ${failed.message}` };
  const protocols = Array.isArray(doc['supported_protocols']) ? doc['supported_protocols'] : [];
  const protocol = role.replaceAll('-', '_');
  if (!protocols.includes(protocol))
    return { ...base, verified: false, reason: `its capabilities do not declare the ${protocol} protocol` };
  if (specialisms.length === 0)
    return { ...base, verified: false, reason: `its capabilities declare no ${role} specialism` };
  return { ...base, verified: true };
}

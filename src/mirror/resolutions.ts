import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { isRecord } from '../protocol/json-values.ts';

interface Brand {
  domain: string;
  aliases: string[];
  record: Uint8Array;
}

/**
 * What the upstream's resolve answers for each brand and property entry, as its `resolution.*`
 * events and snapshot section carried it, for the mirror's resolve and bulk resolve. A property
 * entry's record holds the publisher's whole inventory, so records are kept deflated (a few times
 * smaller) and inflated per answer: resolve is not the hot path, memory at a million properties is.
 *
 * A brand resolves by its own domain, else by an alias its house declares (as the upstream's
 * query does: a brand of its own wins over another's alias). An alias belongs to the brand that
 * last claimed it, as the upstream's alias table keeps one owner per domain.
 */
export class Resolutions {
  private readonly brands = new Map<string, Brand>();
  private readonly brandByDomain = new Map<string, string>();
  private readonly aliasOwner = new Map<string, string>();
  private readonly properties = new Map<string, Uint8Array>();

  /** Applies a `resolution.*` event's payload or a `resolution` snapshot item's data. */
  apply(id: string, data: Record<string, unknown>): void {
    const { kind, domain, resolution } = data;
    if (typeof domain !== 'string' || !isRecord(resolution))
      throw new Error(`resolution ${id} has no domain or record`);
    // Copied to a buffer of its own size: what deflate returns is a view of a 64 KiB output chunk.
    const record = new Uint8Array(deflateRawSync(JSON.stringify(resolution)));
    if (kind === 'property') this.properties.set(domain, record);
    else if (kind === 'brand') this.applyBrand(id, domain, stringsOf(data['aliases']), record);
    else throw new Error(`resolution ${id} is of an unknown kind`);
  }

  brandsFor(domains: readonly string[]): Map<string, unknown> {
    return this.answer(domains, (domain) => {
      const id = this.brandByDomain.get(domain) ?? this.aliasOwner.get(domain);
      return id === undefined ? undefined : this.brands.get(id)?.record;
    });
  }

  propertiesFor(domains: readonly string[]): Map<string, unknown> {
    return this.answer(domains, (domain) => this.properties.get(domain));
  }

  get size(): { brands: number; propertyEntries: number } {
    return { brands: this.brands.size, propertyEntries: this.properties.size };
  }

  private applyBrand(id: string, domain: string, aliases: string[], record: Uint8Array): void {
    const before = this.brands.get(id);
    if (before && this.brandByDomain.get(before.domain) === id) this.brandByDomain.delete(before.domain);
    for (const alias of before?.aliases ?? []) if (this.aliasOwner.get(alias) === id) this.aliasOwner.delete(alias);
    this.brands.set(id, { domain, aliases, record });
    this.brandByDomain.set(domain, id);
    for (const alias of aliases) this.aliasOwner.set(alias, id);
  }

  private answer(
    domains: readonly string[],
    recordOf: (domain: string) => Uint8Array | undefined,
  ): Map<string, unknown> {
    const found = new Map<string, unknown>();
    for (const domain of domains) {
      const record = recordOf(domain);
      if (record) found.set(domain, JSON.parse(inflateRawSync(record).toString('utf8')));
    }
    return found;
  }
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

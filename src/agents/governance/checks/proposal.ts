/**
 * What a check is asked to approve, read the same way from a buyer's intended tool call (`payload`,
 * shaped as the tool's request: create_media_buy's packages and flight, activate_signal's...) and
 * from a seller's `planned_delivery` (core/planned-delivery.json). A field neither names is
 * unknown, and the rule that needs it is not applied.
 */
export interface Proposal {
  amount: number | undefined;
  currency: string | undefined;
  countries: string[];
  channels: string[];
  start: string | undefined;
  end: string | undefined;
  /** The seller the buyer means to call (intent), or the seller checking (execution). */
  seller: string | undefined;
  /** The seller's own id of the buy, when it names one. */
  mediaBuyId: string | undefined;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
const text = (...values: unknown[]): string | undefined => values.find((v): v is string => typeof v === 'string');
const number = (...values: unknown[]): number | undefined =>
  values.find((v): v is number => typeof v === 'number' && Number.isFinite(v));

/** An intended tool call's payload: create_media_buy (packages' budgets), update_media_buy, activate_signal, ... */
export function intentProposal(payload: Json): Proposal {
  const packages = Array.isArray(payload['packages']) ? payload['packages'].filter(isObject) : [];
  const packageBudgets = packages.map((p) =>
    number(p['budget'], isObject(p['budget']) ? p['budget']['total'] : undefined),
  );
  const budget = isObject(payload['budget']) ? payload['budget'] : undefined;
  const flight = isObject(payload['flight']) ? payload['flight'] : undefined;
  const geo = isObject(payload['geo']) ? payload['geo'] : undefined;
  const overlay = isObject(payload['targeting_overlay']) ? payload['targeting_overlay'] : undefined;
  const packageCountries = packages.flatMap((p) =>
    isObject(p['targeting_overlay']) ? strings(p['targeting_overlay']['geo_countries']) : [],
  );
  return {
    amount:
      number(payload['budget'], budget?.['total'], payload['total_budget']) ??
      (packageBudgets.length > 0 && packageBudgets.every((b) => b !== undefined)
        ? packageBudgets.reduce((sum, b) => sum + b!, 0)
        : undefined),
    currency: text(payload['currency'], budget?.['currency']),
    countries: unique([
      ...strings(geo?.['countries']),
      ...strings(payload['countries']),
      ...strings(overlay?.['geo_countries']),
      ...packageCountries,
    ]),
    channels: unique(strings(payload['channels'])),
    start: text(flight?.['start'], payload['start_time'], payload['start_date']),
    end: text(flight?.['end'], payload['end_time'], payload['end_date']),
    seller: text(payload['seller_agent_url'], payload['agent_url'], payload['seller']),
    mediaBuyId: text(payload['media_buy_id']),
  };
}

/** A seller's planned delivery (core/planned-delivery.json), `seller` being the caller. */
export function plannedProposal(planned: Json, seller: string): Proposal {
  const geo = isObject(planned['geo']) ? planned['geo'] : undefined;
  return {
    amount: number(planned['total_budget']),
    currency: text(planned['currency']),
    countries: unique(strings(geo?.['countries'])),
    channels: unique(strings(planned['channels'])),
    start: text(planned['start_time']),
    end: text(planned['end_time']),
    seller,
    mediaBuyId: text(planned['media_buy_id']),
  };
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

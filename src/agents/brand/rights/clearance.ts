import type { Offering, RightUse, RightsPricingOption } from './roster.ts';

/** acquire-rights-request.json's `campaign`. */
export interface Campaign {
  description: string;
  uses: RightUse[];
  countries?: string[];
  estimated_impressions?: number;
  start_date?: string;
  end_date?: string;
  [field: string]: unknown;
}

/** Why the holder refuses an acquisition; with `suggestions` the buyer can adjust and retry, without them it is final. */
export interface Refusal {
  reason: string;
  suggestions?: string[];
}

const dayMs = 86_400_000;
export const addDays = (day: string, days: number): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * dayMs).toISOString().slice(0, 10);

/** The last day a campaign may run under the offering's window, when it has one. */
export const windowEnd = (offering: Offering, today: string): string | undefined =>
  offering.windowDays === undefined ? undefined : addDays(today, offering.windowDays);

/**
 * Whether the holder's terms allow this campaign (uses, countries, the licence window), judged
 * alone, before exclusivity: undefined when they do, else the refusal, with the change that would
 * pass when there is one.
 */
export function clearance(
  offering: Offering,
  option: RightsPricingOption,
  campaign: Campaign,
  today: string,
): Refusal | undefined {
  const notOffered = campaign.uses.filter((u) => !offering.uses.includes(u));
  if (notOffered.length > 0)
    return {
      reason: `${offering.name} is not licensed for ${notOffered.join(', ')}.`,
      suggestions: [`Ask for ${offering.uses.join(', ')} only.`],
    };
  const notPriced = campaign.uses.filter((u) => !option.uses.includes(u));
  if (notPriced.length > 0) {
    const covering = offering.pricing_options.filter((o) => campaign.uses.every((u) => o.uses.includes(u)));
    return {
      reason: `The pricing option ${option.pricing_option_id} does not cover ${notPriced.join(', ')}.`,
      suggestions:
        covering.length > 0
          ? covering.map((o) => `Choose ${o.pricing_option_id}, which covers ${o.uses.join(', ')}.`)
          : [`Ask for ${option.uses.join(', ')} with ${option.pricing_option_id}.`],
    };
  }
  const countries = campaign.countries ?? [];
  const excluded = countries.filter((c) => offering.excluded_countries?.includes(c));
  const outside = offering.countries ? countries.filter((c) => !offering.countries!.includes(c)) : [];
  if (excluded.length + outside.length > 0) {
    const allowed = countries.filter((c) => !excluded.includes(c) && !outside.includes(c));
    return {
      reason: `${offering.name} cannot be licensed in ${[...excluded, ...outside].join(', ')}.`,
      suggestions: [
        allowed.length > 0
          ? `Run in ${allowed.join(', ')} only.`
          : offering.countries
            ? `Run in ${offering.countries.join(', ')}.`
            : `Run outside ${offering.excluded_countries!.join(', ')}.`,
      ],
    };
  }
  if (countries.length === 0 && offering.countries)
    return {
      reason: `${offering.name} is licensed in ${offering.countries.join(', ')} only: name the campaign's countries.`,
      suggestions: [`Set campaign.countries within ${offering.countries.join(', ')}.`],
    };
  const lastDay = windowEnd(offering, today);
  if (lastDay !== undefined && (campaign.end_date === undefined || campaign.end_date > lastDay))
    return {
      reason: `The holder can license ${offering.name} only until ${lastDay}.`,
      suggestions: [`End the campaign by ${lastDay}.`],
    };
  return undefined;
}

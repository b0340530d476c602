/** enums/right-use.json. */
export type RightUse =
  | 'likeness'
  | 'voice'
  | 'name'
  | 'endorsement'
  | 'motion_capture'
  | 'signature'
  | 'catchphrase'
  | 'sync'
  | 'background_music'
  | 'editorial'
  | 'commercial'
  | 'ai_generated_image';

/** brand/rights-pricing-option.json. */
export interface RightsPricingOption {
  pricing_option_id: string;
  model: 'cpm' | 'flat_rate';
  price: number;
  currency: string;
  uses: RightUse[];
  period?: 'daily' | 'weekly' | 'monthly' | 'quarterly' | 'annual' | 'one_time';
  impression_cap?: number;
  overage_cpm?: number;
  description?: string;
}

/** One licensable subject of the roster, and the holder's terms for it. */
export interface Offering {
  rights_id: string;
  /** The rights holder's brand, as the registry knows it (its domain). */
  brand_id: string;
  name: string;
  description: string;
  right_type: 'talent' | 'character' | 'brand_ip' | 'music' | 'stock_media';
  uses: RightUse[];
  /** Where it may be licensed (all countries when absent), and where never. */
  countries?: string[];
  excluded_countries?: string[];
  /** One grant at a time: while a grant holds it (or waits for approval), no other is made. */
  exclusive: boolean;
  /**
   * The holder reviews each acquisition before it is granted, deciding within `minutes`: it
   * refuses a campaign whose description names one of `refuses`, and grants the others.
   */
  review?: { minutes: number; refuses: string[] };
  /** The holder's licence to offer it ends this many days after any request: campaigns must end by then. */
  windowDays?: number;
  content_restrictions: string[];
  disclosure: { required: boolean; text?: string };
  /** The generation service its credentials are scoped to. */
  provider: string;
  pricing_options: RightsPricingOption[];
}

/**
 * The demo roster: fictional talent, a character, brand assets, music and stock media of the demo
 * world's brands, with the terms a newcomer meets in practice — an exclusive endorsement, a
 * licence that needs the holder's approval, one whose window is about to close.
 */
export const demoRoster: readonly Offering[] = [
  {
    rights_id: 'maya_okafor_endorsement',
    brand_id: 'northwind-outdoor.example',
    name: 'Maya Okafor',
    description:
      'Ultra-trail runner and Northwind Outdoor ambassador: likeness, name and endorsement for outdoor gear.',
    right_type: 'talent',
    uses: ['likeness', 'name', 'endorsement', 'ai_generated_image'],
    countries: ['US', 'CA'],
    exclusive: true,
    content_restrictions: ['No alcohol, tobacco or gambling categories', 'No depictions of unsafe trail conduct'],
    disclosure: { required: true, text: 'Maya Okafor is a paid Northwind Outdoor ambassador.' },
    provider: 'midjourney',
    pricing_options: [
      {
        pricing_option_id: 'maya_monthly',
        model: 'flat_rate',
        price: 12_000,
        currency: 'USD',
        uses: ['likeness', 'name', 'endorsement', 'ai_generated_image'],
        period: 'monthly',
        impression_cap: 2_000_000,
        overage_cpm: 4,
        description: 'Exclusive in the category, per month.',
      },
    ],
  },
  {
    rights_id: 'volt_the_fox',
    brand_id: 'halcyon-ev.example',
    name: 'Volt the Fox',
    description: 'Halcyon EV’s animated mascot, a quick electric-blue fox, for co-branded and AI-generated creative.',
    right_type: 'character',
    uses: ['likeness', 'voice', 'commercial', 'ai_generated_image'],
    excluded_countries: ['CN'],
    exclusive: false,
    content_restrictions: ['Family-friendly placements only'],
    disclosure: { required: false },
    provider: 'stability',
    pricing_options: [
      {
        pricing_option_id: 'volt_cpm',
        model: 'cpm',
        price: 1.5,
        currency: 'USD',
        uses: ['likeness', 'commercial', 'ai_generated_image'],
        description: 'Per thousand impressions.',
      },
      {
        pricing_option_id: 'volt_voice_quarter',
        model: 'flat_rate',
        price: 9_000,
        currency: 'USD',
        uses: ['voice', 'likeness', 'commercial'],
        period: 'quarterly',
      },
    ],
  },
  {
    rights_id: 'lumen_sunrise_jingle',
    brand_id: 'lumen-drinks.example',
    name: 'Lumen “Sunrise” jingle',
    description: 'The four-note Lumen jingle and its 30-second arrangement, for sync and background music.',
    right_type: 'music',
    uses: ['sync', 'background_music'],
    exclusive: false,
    review: { minutes: 5, refuses: ['alcohol', 'beer', 'wine', 'spirits', 'gambling', 'politics'] },
    content_restrictions: ['The holder approves each campaign before use'],
    disclosure: { required: false },
    provider: 'elevenlabs',
    pricing_options: [
      {
        pricing_option_id: 'lumen_jingle_once',
        model: 'flat_rate',
        price: 4_500,
        currency: 'USD',
        uses: ['sync', 'background_music'],
        period: 'one_time',
      },
    ],
  },
  {
    rights_id: 'orbit_heritage_logos',
    brand_id: 'orbit-appliances.example',
    name: 'Orbit heritage logo pack',
    description: 'Orbit’s 1970s logos and trade dress, for retro co-branded commercial creative.',
    right_type: 'brand_ip',
    uses: ['commercial', 'editorial'],
    exclusive: false,
    // The holder's own licence to the heritage marks lapses soon.
    windowDays: 14,
    content_restrictions: ['Logos unaltered, on light backgrounds'],
    disclosure: { required: false },
    provider: 'stability',
    pricing_options: [
      {
        pricing_option_id: 'orbit_logos_month',
        model: 'flat_rate',
        price: 2_000,
        currency: 'USD',
        uses: ['commercial', 'editorial'],
        period: 'monthly',
      },
    ],
  },
  {
    rights_id: 'dawn_patrol_photos',
    brand_id: 'trailhead-coffee.example',
    name: 'Dawn Patrol photo set',
    description: 'Forty sunrise photographs of trail runners with coffee at mountain trailheads.',
    right_type: 'stock_media',
    uses: ['editorial', 'commercial'],
    exclusive: false,
    content_restrictions: [],
    disclosure: { required: false },
    provider: 'stability',
    pricing_options: [
      {
        pricing_option_id: 'dawn_patrol_cpm',
        model: 'cpm',
        price: 0.8,
        currency: 'USD',
        uses: ['editorial', 'commercial'],
      },
    ],
  },
];

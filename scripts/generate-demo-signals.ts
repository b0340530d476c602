/**
 * Writes src/agents/signals/catalog/demo-signals.yaml, the signals agent's demo catalog: invented
 * data providers (on .example domains) and the segments a planner would expect of each, with
 * plausible reach, CPMs, countries and platforms. Deterministic (a seeded generator), so a rerun
 * changes the file only when this script changes. Run: node scripts/generate-demo-signals.ts
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Document, isScalar, visit } from 'yaml';

type Category =
  'demographics' | 'interests' | 'in_market' | 'life_events' | 'geography' | 'behaviours' | 'b2b' | 'contextual';

interface Provider {
  name: string;
  domain: string;
  prefix: string;
  countries: string[];
  currency: string;
  platforms: string[];
  /** Sell-side platforms it offers its signals on besides the ad server. */
  sellSide?: string[];
}

interface Segment {
  id: string;
  name: string;
  description: string;
  category: Category;
  taxonomy: string[];
  keywords: string[];
  coverage: number;
  cpm: number;
  countries?: string[];
  value_type?: 'binary' | 'categorical' | 'numeric';
  categories?: string[];
  range?: { min: number; max: number };
}

function seeded(start: number): () => number {
  let seed = start;
  return () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
}
const random = seeded(20240617);
// The ad server's and SSPs' availability draws from its own sequence, so adding them left every
// other value of the catalog as it was.
const sellSideRandom = seeded(20261128);
const jitter = (value: number, spread = 0.25) => value * (1 - spread + 2 * spread * random());
const round = (value: number, digits: number) => Number(value.toFixed(digits));

// Platforms by the identifiers buyers' tools name them with (core/destination.json's examples are
// "the-trade-desk" and "amazon-dsp"): the major DSPs, Google's ad server, and the SSPs that curate.
const dsps = ['the-trade-desk', 'dv360', 'amazon-dsp', 'yahoo-dsp', 'xandr'];
/** Where every marketplace signal is also offered (publisher-side activation through the ad server). */
const adServers = ['google-ad-manager'];
/** Where contextual signals are also offered (curated deals on the sell side). */
const ssps = ['magnite', 'pubmatic', 'index-exchange'];
/** How each platform's segment ids start. */
const segmentPrefix: Record<string, string> = {
  'the-trade-desk': 'ttd',
  dv360: 'dv360',
  'amazon-dsp': 'amzn',
  'yahoo-dsp': 'yahoo',
  xandr: 'xandr',
  'google-ad-manager': 'gam',
  magnite: 'mgni',
  pubmatic: 'pubm',
  'index-exchange': 'ix',
};

const providers = {
  audiencegraph: {
    name: 'AudienceGraph',
    domain: 'audiencegraph.example',
    prefix: 'agr',
    countries: ['US', 'CA'],
    currency: 'USD',
    platforms: dsps.slice(0, 4),
  },
  censia: {
    name: 'Censia Europe',
    domain: 'censia.example',
    prefix: 'cen',
    countries: ['GB', 'DE', 'FR', 'ES', 'IT', 'NL'],
    currency: 'EUR',
    platforms: ['the-trade-desk', 'amazon-dsp', 'xandr'],
  },
  polaris: {
    name: 'Polaris Auto Data',
    domain: 'polarisauto.example',
    prefix: 'pol',
    countries: ['US', 'CA', 'GB', 'DE'],
    currency: 'USD',
    platforms: dsps.slice(0, 3),
  },
  trailmark: {
    name: 'TrailMark Travel Insights',
    domain: 'trailmark.example',
    prefix: 'trm',
    countries: ['US', 'GB', 'CA', 'AU', 'DE', 'FR'],
    currency: 'USD',
    platforms: dsps,
  },
  keystone: {
    name: 'Keystone Property Signals',
    domain: 'keystoneprop.example',
    prefix: 'key',
    countries: ['US'],
    currency: 'USD',
    platforms: ['the-trade-desk', 'dv360'],
  },
  ledgerline: {
    name: 'LedgerLine Financial Audiences',
    domain: 'ledgerline.example',
    prefix: 'ldl',
    countries: ['US', 'CA', 'GB'],
    currency: 'USD',
    platforms: dsps.slice(0, 3),
  },
  shopwave: {
    name: 'Shopwave Retail Data',
    domain: 'shopwave.example',
    prefix: 'shw',
    countries: ['US', 'CA', 'GB', 'AU'],
    currency: 'USD',
    platforms: dsps,
  },
  lifestage: {
    name: 'Lifestage Labs',
    domain: 'lifestagelabs.example',
    prefix: 'lsl',
    countries: ['US', 'CA', 'GB', 'AU'],
    currency: 'USD',
    platforms: dsps.slice(0, 4),
  },
  geopulse: {
    name: 'GeoPulse Location Intelligence',
    domain: 'geopulse.example',
    prefix: 'geo',
    countries: ['US', 'CA', 'GB', 'DE', 'FR', 'ES', 'IT', 'AU', 'JP'],
    currency: 'USD',
    platforms: dsps,
  },
  streamscope: {
    name: 'StreamScope Viewing Data',
    domain: 'streamscope.example',
    prefix: 'sts',
    countries: ['US', 'GB', 'CA', 'AU'],
    currency: 'USD',
    platforms: ['yahoo-dsp', 'the-trade-desk', 'amazon-dsp'],
  },
  bizsphere: {
    name: 'BizSphere B2B',
    domain: 'bizsphere.example',
    prefix: 'biz',
    countries: ['US', 'CA', 'GB', 'DE', 'FR', 'AU'],
    currency: 'USD',
    platforms: ['the-trade-desk', 'dv360', 'xandr'],
  },
  contextly: {
    name: 'Contextly',
    domain: 'contextly.example',
    prefix: 'ctx',
    countries: ['US', 'GB', 'CA', 'AU', 'DE', 'FR', 'ES', 'IT', 'NL', 'JP'],
    currency: 'USD',
    platforms: dsps,
    sellSide: ssps,
  },
} satisfies Record<string, Provider>;

const entries: Record<string, unknown>[] = [];

function add(provider: Provider, segment: Segment): void {
  const segmentId = `${provider.prefix}_${segment.id}`;
  const live = provider.platforms.filter(() => random() < 0.45);
  const countries = segment.countries ?? provider.countries;
  const cpm = round(jitter(segment.cpm, 0.15), 2);
  const pricing: Record<string, unknown>[] = [
    { pricing_option_id: `${segmentId}_cpm`, model: 'cpm', cpm, currency: provider.currency },
  ];
  if (random() < 0.2)
    pricing.push({
      pricing_option_id: `${segmentId}_pom`,
      model: 'percent_of_media',
      percent: round(10 + random() * 8, 0),
      max_cpm: round(cpm * 1.4, 2),
      currency: provider.currency,
    });
  entries.push({
    signal_agent_segment_id: segmentId,
    signal_id: { source: 'catalog', data_provider_domain: provider.domain, id: segment.id },
    name: segment.name,
    description: segment.description,
    value_type: segment.value_type ?? 'binary',
    ...(segment.categories ? { categories: segment.categories } : {}),
    ...(segment.range ? { range: segment.range } : {}),
    signal_type: 'marketplace',
    data_provider: provider.name,
    coverage_percentage: round(Math.min(95, jitter(segment.coverage, 0.2)), segment.coverage < 1 ? 2 : 1),
    pricing_options: pricing,
    category: segment.category,
    taxonomy: segment.taxonomy,
    keywords: [...new Set(segment.keywords)],
    countries,
    platforms: [
      ...provider.platforms.map((platform) => availability(platform, live.includes(platform), random)),
      ...[...adServers, ...(provider.sellSide ?? [])].map((platform) =>
        availability(platform, sellSideRandom() < 0.45, sellSideRandom),
      ),
    ],
  });
}

function availability(platform: string, live: boolean, draw: () => number): Record<string, unknown> {
  if (live)
    return {
      platform,
      segment_id: `${segmentPrefix[platform]}-${Math.floor(100000 + draw() * 899999)}`,
      activation_minutes: 0,
    };
  return { platform, activation_minutes: [60, 120, 240, 720, 1440][Math.floor(draw() * 5)]! };
}

// ---- Demographics -------------------------------------------------------------------------
const ages: [string, string, number][] = [
  ['18_24', '18-24', 11],
  ['25_34', '25-34', 17],
  ['35_44', '35-44', 16],
  ['45_54', '45-54', 15],
  ['55_64', '55-64', 15],
  ['65_plus', '65+', 19],
];
const genders: [string, string, string[], number][] = [
  ['adults', 'Adults', ['adults', 'people', 'consumers'], 1],
  ['women', 'Women', ['women', 'female', 'females', 'moms'], 0.51],
  ['men', 'Men', ['men', 'male', 'males', 'guys'], 0.49],
];
const incomes: [string, string, number, number][] = [
  ['under_50k', 'under $50,000', 34, 0.6],
  ['50k_75k', '$50,000-$75,000', 17, 0.7],
  ['75k_100k', '$75,000-$100,000', 13, 0.8],
  ['100k_150k', '$100,000-$150,000', 16, 1.1],
  ['150k_250k', '$150,000-$250,000', 12, 1.4],
  ['250k_plus', '$250,000 or more', 5, 2],
];
const educations: [string, string, number][] = [
  ['high_school', 'High school diploma', 27],
  ['some_college', 'Some college', 20],
  ['bachelors', "Bachelor's degree", 23],
  ['graduate', 'Graduate degree', 14],
];
const parents: [string, string, number, string[]][] = [
  ['parents_any', 'Parents of children under 18', 27, ['parents', 'moms', 'dads', 'families with kids']],
  [
    'parents_0_2',
    'Parents of babies and toddlers (0-2)',
    6,
    ['parents of babies', 'infants', 'toddlers', 'new parents'],
  ],
  ['parents_3_5', 'Parents of preschoolers (3-5)', 7, ['preschool', 'parents of young children']],
  ['parents_6_11', 'Parents of school-age children (6-11)', 12, ['school age kids', 'elementary school parents']],
  ['parents_12_17', 'Parents of teenagers (12-17)', 12, ['parents of teens', 'teenagers', 'high school parents']],
];
for (const [provider, market, money] of [
  [providers.audiencegraph, 'North American', '$'],
  [providers.censia, 'European', '€'],
] as const) {
  const region = market === 'North American' ? 'US and Canada' : 'the UK and EU';
  for (const [ageId, ageName, ageShare] of ages) {
    for (const [gId, gName, gWords, gShare] of genders) {
      add(provider, {
        id: `demo_${gId}_${ageId}`,
        name: `${gName} ${ageName}`,
        category: 'demographics',
        taxonomy: ['demographics', 'age and gender', `${ageName}`],
        description: `${gName} aged ${ageName} in ${region}, from ${market} registration, survey and panel data modelled to the household and device.`,
        keywords: [
          ...gWords,
          `age ${ageName}`,
          `${ageName} year olds`,
          ageId === '18_24' ? 'gen z' : ageId === '25_34' ? 'millennials' : ageId === '65_plus' ? 'seniors' : 'adults',
        ],
        coverage: ageShare * gShare * 0.9,
        cpm: 0.9,
      });
    }
  }
  for (const [id, band, share, factor] of incomes) {
    const label = market === 'North American' ? band : band.replace(/\$/g, money).replace('000', '000');
    add(provider, {
      id: `hhi_${id}`,
      name: `Household income ${label}`,
      category: 'demographics',
      taxonomy: ['demographics', 'household income', label],
      description: `Households in ${region} with an estimated annual income of ${label}, modelled from census-block and credit-header data (no individual financial records).`,
      keywords: [
        'household income',
        'hhi',
        'income',
        ...(factor >= 1.4
          ? ['affluent', 'wealthy', 'high income', 'high net worth']
          : factor <= 0.6
            ? ['budget conscious', 'lower income']
            : ['middle income', 'middle class']),
      ],
      coverage: share,
      cpm: 0.8 * factor,
    });
  }
  add(provider, {
    id: 'hhi_band',
    name: 'Household income band',
    category: 'demographics',
    taxonomy: ['demographics', 'household income'],
    value_type: 'categorical',
    categories: incomes.map(([id]) => id),
    description: `Estimated household income band of every matched household in ${region}, for targeting several bands with one signal.`,
    keywords: ['household income', 'income band', 'hhi'],
    coverage: 78,
    cpm: 1.1,
  });
  for (const [id, name, share] of educations) {
    add(provider, {
      id: `edu_${id}`,
      name: `Education: ${name}`,
      category: 'demographics',
      taxonomy: ['demographics', 'education', name],
      description: `Adults in ${region} whose highest completed education is likely ${name.toLowerCase()}, modelled from survey panels.`,
      keywords: [
        'education',
        name.toLowerCase(),
        ...(id === 'graduate'
          ? ['postgraduate', 'masters', 'phd', 'highly educated']
          : id === 'bachelors'
            ? ['college educated', 'university graduates']
            : []),
      ],
      coverage: share,
      cpm: 0.85,
    });
  }
  for (const [id, name, share, words] of parents) {
    add(provider, {
      id,
      name,
      category: 'demographics',
      taxonomy: ['demographics', 'household', 'parents'],
      description: `${name} in ${region}, from household composition data.`,
      keywords: words,
      coverage: share,
      cpm: 1.0,
    });
  }
  for (const [id, name, share, words] of [
    ['homeowners', 'Homeowners', 55, ['home owners', 'own their home']],
    ['renters', 'Renters', 36, ['renting', 'tenants', 'apartment dwellers']],
    ['married', 'Married adults', 48, ['married couples', 'spouses']],
    ['single', 'Single adults', 31, ['singles', 'unmarried']],
    ['grandparents', 'Grandparents', 14, ['grandparents', 'grandmas', 'grandpas']],
    ['pet_households', 'Households with pets', 44, ['pet owners', 'pets']],
  ] as const) {
    add(provider, {
      id,
      name,
      category: 'demographics',
      taxonomy: ['demographics', 'household', name.toLowerCase()],
      description: `${name} in ${region}, from household composition and property records.`,
      keywords: [...words],
      coverage: share,
      cpm: 0.75,
    });
  }
}
add(providers.audiencegraph, {
  id: 'spanish_speaking_hh',
  name: 'Spanish-speaking households',
  category: 'demographics',
  taxonomy: ['demographics', 'language', 'spanish'],
  description:
    'US households where Spanish is the primary or a frequently used language, from panel and content-consumption data.',
  keywords: ['hispanic', 'latino', 'spanish language', 'bilingual'],
  coverage: 13,
  cpm: 1.2,
  countries: ['US'],
});

// ---- Interests ----------------------------------------------------------------------------
const interests: [string, string, string[], number][] = [
  ['football', 'American football fans', ['nfl', 'football', 'super bowl', 'college football'], 22],
  ['basketball', 'Basketball fans', ['nba', 'basketball', 'hoops'], 15],
  ['soccer', 'Soccer fans', ['soccer', 'football', 'premier league', 'world cup', 'futbol'], 14],
  ['golf', 'Golf enthusiasts', ['golf', 'golfers', 'pga'], 6],
  ['tennis', 'Tennis fans', ['tennis', 'wimbledon'], 5],
  ['running', 'Runners', ['running', 'marathon', 'jogging', '5k'], 8],
  ['cycling', 'Cycling enthusiasts', ['cycling', 'bikes', 'road cycling', 'mountain biking'], 5],
  ['fitness', 'Fitness enthusiasts', ['fitness', 'gym', 'workout', 'health conscious', 'exercise'], 18],
  ['yoga', 'Yoga and pilates', ['yoga', 'pilates', 'mindfulness', 'wellness'], 7],
  ['hiking', 'Hiking and outdoor adventure', ['hiking', 'outdoors', 'trail', 'adventure'], 10],
  ['camping', 'Camping and RV', ['camping', 'rv', 'campers', 'glamping'], 6],
  ['fishing', 'Fishing enthusiasts', ['fishing', 'anglers', 'fly fishing'], 5],
  ['cooking', 'Home cooks', ['cooking', 'recipes', 'home chefs', 'baking'], 19],
  ['foodies', 'Foodies and dining out', ['foodies', 'restaurants', 'fine dining', 'food lovers'], 14],
  ['vegan', 'Plant-based and vegan eaters', ['vegan', 'vegetarian', 'plant based'], 4],
  ['coffee', 'Coffee lovers', ['coffee', 'espresso', 'cafes'], 16],
  ['wine', 'Wine enthusiasts', ['wine', 'sommelier', 'vineyards'], 8],
  ['craft_beer', 'Craft beer enthusiasts', ['craft beer', 'breweries', 'ipa'], 6],
  ['movies', 'Movie buffs', ['movies', 'cinema', 'film', 'box office'], 21],
  ['streaming', 'Streaming TV fans', ['streaming', 'binge watching', 'tv shows', 'series'], 33],
  ['gaming', 'Video gamers', ['gaming', 'gamers', 'video games', 'console gamers', 'pc gaming'], 20],
  ['esports', 'Esports fans', ['esports', 'competitive gaming', 'twitch'], 5],
  ['music_festivals', 'Live music and festivals', ['concerts', 'festivals', 'live music'], 9],
  ['podcasts', 'Podcast enthusiasts', ['podcasts', 'audio'], 15],
  ['anime', 'Anime fans', ['anime', 'manga'], 4],
  ['photography', 'Photography hobbyists', ['photography', 'cameras', 'photographers'], 5],
  ['diy', 'DIY and crafts', ['diy', 'crafts', 'home projects', 'makers'], 11],
  ['gardening', 'Gardeners', ['gardening', 'plants', 'garden'], 12],
  ['home_decor', 'Home decor enthusiasts', ['home decor', 'interior design', 'decorating'], 13],
  ['dog_owners', 'Dog owners', ['dogs', 'dog owners', 'puppies', 'pet parents'], 30],
  ['cat_owners', 'Cat owners', ['cats', 'cat owners', 'kittens'], 22],
  ['luxury_fashion', 'Luxury fashion', ['luxury', 'designer fashion', 'high fashion'], 3],
  ['beauty', 'Beauty and cosmetics', ['beauty', 'makeup', 'cosmetics'], 17],
  ['skincare', 'Skincare enthusiasts', ['skincare', 'skin care', 'anti aging'], 12],
  ['sneakers', 'Sneakerheads', ['sneakers', 'streetwear', 'trainers'], 4],
  ['early_adopters', 'Tech early adopters', ['early adopters', 'tech enthusiasts', 'gadgets'], 8],
  ['smart_home', 'Smart home enthusiasts', ['smart home', 'home automation', 'iot'], 7],
  ['travel_enthusiasts', 'Travel enthusiasts', ['travel', 'travellers', 'wanderlust'], 18],
  ['personal_finance', 'Personal finance and investing', ['investing', 'personal finance', 'stocks', 'savings'], 12],
  ['sustainability', 'Eco-conscious consumers', ['sustainability', 'eco friendly', 'green', 'environment'], 11],
  ['auto_enthusiasts', 'Car enthusiasts', ['cars', 'car enthusiasts', 'motorsport', 'petrolheads'], 9],
  ['formula_racing', 'Motorsport and F1 fans', ['f1', 'formula 1', 'racing', 'motorsport'], 4],
  ['books', 'Book lovers', ['books', 'reading', 'readers', 'literature'], 14],
];
for (const [id, name, words, share] of interests) {
  add(providers.audiencegraph, {
    id: `int_${id}`,
    name,
    category: 'interests',
    taxonomy: ['interests', words[0]!],
    description: `${name}: people whose browsing, app usage and purchases over the last 90 days show a sustained interest in ${words[0]}.`,
    keywords: words,
    coverage: share,
    cpm: 1.25,
  });
  if (share >= 8)
    add(providers.streamscope, {
      id: `view_${id}`,
      name: `${name} (viewing)`,
      category: 'interests',
      taxonomy: ['interests', words[0]!, 'viewing'],
      description: `Connected-TV and streaming households that watch ${words[0]} content regularly, from opted-in smart-TV viewing data.`,
      keywords: [...words, 'ctv', 'viewers'],
      coverage: share * 0.7,
      cpm: 1.6,
    });
}

// ---- In-market ----------------------------------------------------------------------------
const autos: [string, string, string[], number, number][] = [
  ['suv', 'SUVs and crossovers', ['suv', 'crossover', 'sport utility'], 3.5, 3.2],
  ['pickup', 'Pickup trucks', ['pickup', 'truck', 'trucks'], 2.1, 3.2],
  ['sedan', 'Sedans', ['sedan', 'saloon', 'family car'], 2.4, 2.8],
  ['minivan', 'Minivans', ['minivan', 'people carrier', 'family vehicle'], 0.8, 3.0],
  ['ev', 'Electric vehicles', ['ev', 'electric car', 'electric vehicle', 'bev', 'zero emission'], 1.2, 4.2],
  ['hybrid', 'Hybrid vehicles', ['hybrid', 'plug-in hybrid', 'phev', 'fuel efficient'], 1.4, 3.6],
  ['luxury', 'Luxury vehicles', ['luxury car', 'premium car', 'luxury vehicle'], 1.1, 4.5],
  ['sports_car', 'Sports cars', ['sports car', 'performance car', 'convertible'], 0.5, 4.0],
  ['compact', 'Compact and city cars', ['compact car', 'hatchback', 'small car'], 1.9, 2.6],
  ['used', 'Used cars', ['used car', 'pre-owned', 'second hand car'], 4.8, 2.4],
  ['motorcycle', 'Motorcycles', ['motorcycle', 'motorbike', 'bikers'], 0.6, 3.0],
  ['auto_loan', 'Auto loans and financing', ['car loan', 'auto financing', 'auto loan', 'lease'], 1.7, 4.0],
  ['auto_insurance', 'Auto insurance shoppers', ['car insurance', 'auto insurance'], 3.1, 3.8],
  ['tires', 'Tires and auto service', ['tires', 'tyres', 'oil change', 'auto repair', 'car service'], 4.5, 1.8],
  ['lease_end', 'Lease ending within 6 months', ['lease ending', 'lease expiry', 'lease renewal'], 0.9, 4.4],
];
for (const [id, name, words, share, cpm] of autos) {
  add(providers.polaris, {
    id: `inmkt_auto_${id}`,
    name: `In-market: ${name}`,
    category: 'in_market',
    taxonomy: ['automotive', 'in-market', name.toLowerCase()],
    description: `Consumers actively shopping for ${name.toLowerCase()}: configurator visits, dealer-site sessions, reviews read and lead forms in the last 30 days.`,
    keywords: [...words, 'in-market', 'car shoppers', 'auto intenders', 'shopping for a car'],
    coverage: share,
    cpm,
  });
  if (['suv', 'ev', 'pickup', 'luxury', 'hybrid'].includes(id)) {
    add(providers.polaris, {
      id: `owner_auto_${id}`,
      name: `Current owners: ${name}`,
      category: 'behaviours',
      taxonomy: ['automotive', 'owners', name.toLowerCase()],
      description: `Households registered as owning ${name.toLowerCase()}, from vehicle registration and service records.`,
      keywords: [...words, 'owners', 'conquest', 'current owners'],
      coverage: share * 4,
      cpm: cpm * 0.7,
    });
    add(providers.polaris, {
      id: `propensity_auto_${id}`,
      name: `${name} purchase propensity score`,
      category: 'in_market',
      taxonomy: ['automotive', 'propensity', name.toLowerCase()],
      value_type: 'numeric',
      range: { min: 0, max: 1 },
      description: `Modelled likelihood (0 to 1) that a household buys ${name.toLowerCase()} in the next 6 months.`,
      keywords: [...words, 'propensity', 'likely buyers', 'in-market'],
      coverage: 62,
      cpm: cpm * 1.2,
    });
  }
}
const travel: [string, string, string[], number, number][] = [
  ['flights_domestic', 'Domestic flights', ['flights', 'air travel', 'airfare', 'domestic travel'], 6, 2.4],
  [
    'flights_international',
    'International flights',
    ['international flights', 'long haul', 'overseas travel'],
    3.2,
    3.0,
  ],
  [
    'business_class',
    'Premium and business-class flights',
    ['business class', 'first class', 'premium travel'],
    0.7,
    4.2,
  ],
  ['hotels_luxury', 'Luxury hotels', ['luxury hotels', 'five star', 'resorts'], 1.5, 3.6],
  ['hotels_budget', 'Budget hotels and hostels', ['budget hotels', 'hostels', 'cheap stays'], 3.4, 2.0],
  ['cruises', 'Cruises', ['cruise', 'cruises', 'cruise ship'], 1.1, 3.4],
  ['vacation_rentals', 'Vacation rentals', ['vacation rental', 'holiday home', 'cabin rental'], 2.6, 2.6],
  ['ski', 'Ski and snow trips', ['ski', 'skiing', 'snowboarding', 'ski resort'], 1.0, 3.0],
  ['beach', 'Beach vacations', ['beach', 'sun holidays', 'tropical'], 3.8, 2.6],
  ['europe', 'Trips to Europe', ['europe', 'european vacation', 'paris', 'italy', 'spain'], 2.2, 3.0],
  ['caribbean', 'Trips to the Caribbean', ['caribbean', 'bahamas', 'jamaica', 'all inclusive'], 1.6, 3.0],
  ['japan', 'Trips to Japan', ['japan', 'tokyo', 'kyoto'], 0.6, 3.2],
  ['mexico', 'Trips to Mexico', ['mexico', 'cancun', 'los cabos'], 1.8, 2.8],
  ['hawaii', 'Trips to Hawaii', ['hawaii', 'maui', 'honolulu'], 0.9, 3.0],
  ['car_rental', 'Car rentals', ['car rental', 'rent a car', 'hire car'], 2.9, 2.2],
  ['theme_parks', 'Theme parks', ['theme parks', 'amusement parks', 'family attractions'], 2.0, 2.4],
  ['family_vacation', 'Family vacations', ['family holiday', 'family vacation', 'kids travel'], 3.0, 2.6],
  ['business_travel', 'Business travellers', ['business travel', 'corporate travel', 'road warriors'], 2.5, 3.4],
  ['city_breaks', 'City breaks and weekend getaways', ['city break', 'weekend getaway', 'short trip'], 4.1, 2.2],
  ['adventure_travel', 'Adventure travel and safaris', ['adventure travel', 'safari', 'trekking'], 0.8, 3.2],
];
for (const [id, name, words, share, cpm] of travel) {
  add(providers.trailmark, {
    id: `inmkt_travel_${id}`,
    name: `In-market: ${name}`,
    category: 'in_market',
    taxonomy: ['travel', 'in-market', name.toLowerCase()],
    description: `Travellers researching or booking ${name.toLowerCase()}: searches, fare and rate checks and itinerary pages in the last 14 days.`,
    keywords: [...words, 'in-market', 'travel intenders', 'planning a trip'],
    coverage: share,
    cpm,
  });
}
const realEstate: [string, string, string[], number, number][] = [
  ['first_time_buyers', 'First-time home buyers', ['first time buyer', 'first home', 'starter home'], 1.3, 3.8],
  ['luxury_homes', 'Luxury home shoppers', ['luxury homes', 'high end real estate', 'mansions'], 0.4, 5.0],
  ['home_shoppers', 'Home shoppers', ['home buyers', 'house hunting', 'real estate', 'buying a house'], 3.1, 3.4],
  ['rental_seekers', 'Apartment and rental seekers', ['apartment hunting', 'rentals', 'renting'], 4.0, 2.4],
  ['mortgage_refi', 'Mortgage refinance', ['refinance', 'refi', 'mortgage rates'], 1.6, 4.4],
  ['home_equity', 'Home equity loans', ['heloc', 'home equity'], 0.9, 4.2],
  [
    'home_improvement',
    'Home improvement and renovation',
    ['renovation', 'remodel', 'home improvement', 'kitchen remodel'],
    5.2,
    2.2,
  ],
  ['sellers', 'Likely home sellers', ['selling a house', 'listing', 'home sellers'], 1.1, 4.0],
  ['vacation_homes', 'Second and vacation home buyers', ['second home', 'vacation home', 'holiday home'], 0.5, 4.6],
  ['solar', 'Home solar and energy upgrades', ['solar panels', 'solar', 'heat pump', 'energy efficiency'], 1.2, 3.8],
];
for (const [id, name, words, share, cpm] of realEstate) {
  add(providers.keystone, {
    id: `inmkt_re_${id}`,
    name: `In-market: ${name}`,
    category: 'in_market',
    taxonomy: ['real estate', 'in-market', name.toLowerCase()],
    description: `${name}: listing views, mortgage calculator use and agent contacts in the last 30 days.`,
    keywords: [...words, 'in-market', 'property', 'housing'],
    coverage: share,
    cpm,
  });
}
const finance: [string, string, string[], number, number][] = [
  ['cc_rewards', 'Rewards credit cards', ['credit card', 'rewards card', 'cash back'], 2.8, 4.0],
  ['cc_travel', 'Travel credit cards', ['travel card', 'airline miles', 'points'], 1.4, 4.4],
  ['cc_balance', 'Balance transfer cards', ['balance transfer', 'debt consolidation'], 1.2, 4.2],
  ['personal_loans', 'Personal loans', ['personal loan', 'loans', 'borrowing'], 1.9, 4.0],
  ['mortgages', 'Mortgages', ['mortgage', 'home loan', 'mortgage rates'], 1.5, 4.8],
  ['investing', 'Investment platforms', ['investing', 'brokerage', 'stocks', 'etf'], 2.2, 4.2],
  ['retirement', 'Retirement planning', ['retirement', '401k', 'pension', 'ira', 'annuities'], 2.6, 4.4],
  ['crypto', 'Cryptocurrency', ['crypto', 'bitcoin', 'cryptocurrency'], 1.1, 3.6],
  ['ins_auto', 'Car insurance', ['car insurance', 'auto insurance', 'motor insurance'], 3.3, 3.8],
  ['ins_home', 'Home insurance', ['home insurance', 'homeowners insurance'], 1.8, 3.8],
  ['ins_life', 'Life insurance', ['life insurance', 'term life'], 1.3, 4.2],
  ['ins_health', 'Health insurance', ['health insurance', 'medical insurance', 'open enrollment'], 2.0, 4.2],
  ['ins_pet', 'Pet insurance', ['pet insurance', 'dog insurance'], 0.7, 3.2],
  [
    'checking',
    'New checking and savings accounts',
    ['bank account', 'checking account', 'savings account', 'high yield savings'],
    2.4,
    3.4,
  ],
  ['sb_loans', 'Small business loans', ['small business loan', 'business financing', 'sba'], 0.6, 5.0],
  ['tax_prep', 'Tax preparation', ['taxes', 'tax filing', 'tax software'], 4.5, 2.6],
  ['wealth', 'Wealth management', ['wealth management', 'financial advisor', 'private banking'], 0.8, 5.5],
  ['bnpl', 'Buy now, pay later', ['bnpl', 'buy now pay later', 'installments'], 2.1, 2.8],
];
for (const [id, name, words, share, cpm] of finance) {
  add(providers.ledgerline, {
    id: `inmkt_fin_${id}`,
    name: `In-market: ${name}`,
    category: 'in_market',
    taxonomy: ['finance', 'in-market', name.toLowerCase()],
    description: `Consumers comparing ${name.toLowerCase()}: comparison-site visits, rate checks and application starts in the last 30 days (no credit data).`,
    keywords: [...words, 'in-market', 'financial services', 'finance'],
    coverage: share,
    cpm,
  });
}
const retail: [string, string, string[], number, number][] = [
  ['smartphones', 'Smartphones', ['smartphone', 'phone', 'mobile phone', 'new phone', 'iphone', 'android'], 5.5, 2.8],
  ['laptops', 'Laptops and computers', ['laptop', 'computer', 'notebook', 'pc'], 3.4, 2.8],
  ['tvs', 'TVs', ['tv', 'television', '4k tv', 'oled'], 2.9, 2.6],
  ['consoles', 'Gaming consoles', ['console', 'playstation', 'xbox', 'gaming console'], 1.8, 2.6],
  ['headphones', 'Headphones and audio', ['headphones', 'earbuds', 'speakers', 'audio'], 3.1, 2.2],
  ['smart_home', 'Smart home devices', ['smart home', 'smart speaker', 'thermostat', 'doorbell camera'], 2.2, 2.4],
  ['cameras', 'Cameras', ['camera', 'mirrorless', 'dslr'], 0.7, 2.6],
  ['wearables', 'Wearables and smartwatches', ['smartwatch', 'fitness tracker', 'wearables'], 2.0, 2.6],
  ['appliances', 'Major appliances', ['appliances', 'washing machine', 'refrigerator', 'dishwasher'], 2.3, 3.0],
  ['furniture', 'Furniture', ['furniture', 'sofa', 'couch', 'dining table'], 3.0, 2.6],
  ['mattresses', 'Mattresses and bedding', ['mattress', 'bed', 'bedding', 'sleep'], 1.5, 3.0],
  ['home_fitness', 'Home fitness equipment', ['home gym', 'treadmill', 'exercise bike', 'fitness equipment'], 1.2, 2.8],
  ['baby_gear', 'Baby gear', ['baby products', 'stroller', 'car seat', 'crib', 'diapers'], 1.6, 2.8],
  ['back_to_school', 'Back-to-school shoppers', ['back to school', 'school supplies'], 6.0, 1.8],
  [
    'holiday_gifts',
    'Holiday gift shoppers',
    ['holiday shopping', 'christmas gifts', 'gifts', 'black friday'],
    12.0,
    1.6,
  ],
  ['watches', 'Luxury watches', ['luxury watch', 'watches', 'timepieces'], 0.5, 3.6],
  ['jewelry', 'Fine jewelry', ['jewelry', 'jewellery', 'engagement rings', 'diamonds'], 1.0, 3.2],
  ['beauty', 'Beauty products', ['beauty', 'makeup', 'skincare', 'fragrance'], 6.2, 2.0],
  ['grocery_delivery', 'Grocery delivery', ['grocery delivery', 'online groceries'], 4.4, 1.8],
  ['meal_kits', 'Meal kits', ['meal kit', 'meal delivery', 'recipe boxes'], 1.3, 2.4],
  ['pet_supplies', 'Pet food and supplies', ['pet food', 'pet supplies', 'dog food', 'cat food'], 5.1, 1.8],
  [
    'sportswear',
    'Athletic apparel and footwear',
    ['sportswear', 'running shoes', 'athleisure', 'activewear'],
    4.2,
    2.2,
  ],
  ['outdoor_gear', 'Outdoor and camping gear', ['outdoor gear', 'tents', 'hiking boots'], 1.4, 2.4],
  ['toys', 'Toys and games', ['toys', 'games', 'lego', 'kids gifts'], 3.3, 2.0],
  ['wine_spirits', 'Wine and spirits (21+)', ['wine', 'spirits', 'whiskey', 'liquor'], 2.7, 2.4],
];
for (const [id, name, words, share, cpm] of retail) {
  add(providers.shopwave, {
    id: `inmkt_retail_${id}`,
    name: `In-market: ${name}`,
    category: 'in_market',
    taxonomy: ['retail', 'in-market', name.toLowerCase()],
    description: `Shoppers researching ${name.toLowerCase()}: product-page views, price comparisons and basket adds across partner retailers in the last 14 days.`,
    keywords: [...words, 'in-market', 'shoppers', 'buying', 'shopping for'],
    coverage: share,
    cpm,
  });
}

// ---- Life events --------------------------------------------------------------------------
const lifeEvents: [string, string, string, string[], number, number][] = [
  [
    'new_movers_30',
    'New movers (last 30 days)',
    'moved into a new home in the last 30 days, from change-of-address and utility-connection data',
    ['recently moved', 'new movers', 'just moved', 'new address', 'relocated'],
    0.9,
    3.2,
  ],
  [
    'new_movers_90',
    'New movers (last 90 days)',
    'moved into a new home in the last 90 days',
    ['recently moved', 'new movers', 'moved house', 'relocation'],
    2.4,
    2.8,
  ],
  [
    'pre_movers',
    'Pre-movers',
    'show signs of an upcoming move: home listed, moving-quote requests, storage searches',
    ['pre movers', 'moving soon', 'planning to move', 'moving'],
    1.6,
    3.4,
  ],
  [
    'new_homeowners',
    'New homeowners',
    'became homeowners in the last 6 months, from property transfer records',
    ['new homeowners', 'just bought a house', 'first home'],
    1.2,
    3.2,
  ],
  [
    'expecting_parents',
    'Expecting parents',
    'are expecting a baby: registry creation, prenatal content and maternity purchases',
    ['expecting', 'pregnant', 'pregnancy', 'baby on the way', 'expectant parents'],
    0.8,
    3.6,
  ],
  [
    'new_parents',
    'New parents',
    'had a baby in the last 12 months',
    ['new parents', 'new baby', 'newborn', 'new moms', 'new dads'],
    1.4,
    3.4,
  ],
  [
    'engaged',
    'Recently engaged',
    'got engaged in the last 6 months: ring purchases, venue and planner research',
    ['engaged', 'engagement', 'getting married', 'wedding planning', 'brides', 'grooms'],
    0.7,
    3.4,
  ],
  ['newlyweds', 'Newlyweds', 'married in the last 12 months', ['newlyweds', 'just married', 'honeymoon'], 0.9, 3.0],
  [
    'approaching_retirement',
    'Approaching retirement',
    'are within five years of retirement, modelled from age, tenure and pension-planning activity',
    ['nearing retirement', 'pre retirees', 'retirement planning'],
    4.1,
    3.0,
  ],
  [
    'recently_retired',
    'Recently retired',
    'retired in the last 24 months',
    ['retiring', 'retired', 'retirees', 'recently retired'],
    2.2,
    2.8,
  ],
  [
    'new_graduates',
    'New graduates',
    'graduated from college or university in the last 12 months',
    ['new grads', 'graduates', 'graduation', 'class of'],
    1.5,
    2.6,
  ],
  [
    'starting_college',
    'Starting college',
    'have a household member starting college or university this year',
    ['college freshmen', 'university', 'dorm', 'starting college'],
    1.3,
    2.6,
  ],
  [
    'empty_nesters',
    'Empty nesters',
    'have had their youngest child leave home in the last two years',
    ['empty nesters', 'kids left home'],
    3.2,
    2.4,
  ],
  [
    'new_job',
    'Recently started a new job',
    'started a new job in the last 3 months, from professional-profile changes',
    ['new job', 'career change', 'job change', 'promotion'],
    2.0,
    3.0,
  ],
  [
    'new_pet',
    'New pet owners',
    'got a new dog or cat in the last 6 months',
    ['new puppy', 'new kitten', 'adopted a pet', 'new pet'],
    1.1,
    2.6,
  ],
  [
    'first_car',
    'First-time car buyers',
    'are buying their first car',
    ['first car', 'new drivers', 'first time car buyer'],
    0.6,
    3.2,
  ],
  [
    'new_business',
    'New business owners',
    'registered a new business in the last 12 months',
    ['new business', 'startup founders', 'entrepreneurs', 'small business owners'],
    0.5,
    3.8,
  ],
  [
    'birthday_month',
    'Birthday this month',
    'have a birthday in the current month',
    ['birthday', 'birthday month'],
    8.3,
    1.2,
  ],
  [
    'divorced',
    'Recently divorced or separated',
    'divorced or separated in the last 12 months',
    ['divorce', 'separated', 'single again'],
    0.6,
    2.8,
  ],
  [
    'caregivers',
    'New caregivers',
    'recently began caring for an elderly relative',
    ['caregivers', 'elder care', 'caring for parents'],
    1.0,
    2.8,
  ],
];
for (const provider of [providers.lifestage, providers.keystone]) {
  for (const [id, name, how, words, share, cpm] of lifeEvents) {
    if (
      provider === providers.keystone &&
      !['new_movers_30', 'new_movers_90', 'pre_movers', 'new_homeowners'].includes(id)
    )
      continue;
    add(provider, {
      id: `life_${id}`,
      name: `Life event: ${name}`,
      category: 'life_events',
      taxonomy: ['life events', name.toLowerCase()],
      description: `Households or people who ${how}.`,
      keywords: [...words, 'life event', 'life stage'],
      coverage: share,
      cpm,
    });
  }
}

// ---- Geography ----------------------------------------------------------------------------
const countries: [string, string, number, string[]][] = [
  ['US', 'United States', 31, ['usa', 'america', 'united states', 'us']],
  ['CA', 'Canada', 3.6, ['canada', 'canadian']],
  ['GB', 'United Kingdom', 6.4, ['uk', 'britain', 'united kingdom', 'england', 'british']],
  ['DE', 'Germany', 7.8, ['germany', 'deutschland', 'german']],
  ['FR', 'France', 6.1, ['france', 'french']],
  ['ES', 'Spain', 4.4, ['spain', 'espana', 'spanish']],
  ['IT', 'Italy', 5.5, ['italy', 'italian']],
  ['NL', 'Netherlands', 1.6, ['netherlands', 'holland', 'dutch']],
  ['AU', 'Australia', 2.4, ['australia', 'australian', 'aussie']],
  ['JP', 'Japan', 11.2, ['japan', 'japanese']],
  ['BR', 'Brazil', 6.9, ['brazil', 'brasil', 'brazilian']],
  ['MX', 'Mexico', 4.1, ['mexico', 'mexican']],
  ['IN', 'India', 12.5, ['india', 'indian']],
  ['SG', 'Singapore', 0.5, ['singapore']],
  ['AE', 'United Arab Emirates', 0.8, ['uae', 'emirates', 'dubai', 'abu dhabi']],
  ['SE', 'Sweden', 0.9, ['sweden', 'swedish', 'nordics']],
  ['PL', 'Poland', 2.8, ['poland', 'polish']],
  ['IE', 'Ireland', 0.5, ['ireland', 'irish']],
  ['NZ', 'New Zealand', 0.5, ['new zealand', 'kiwi']],
  ['ZA', 'South Africa', 1.8, ['south africa']],
];
for (const [code, name, share, words] of countries) {
  add(providers.geopulse, {
    id: `geo_country_${code.toLowerCase()}`,
    name: `Residents of ${name}`,
    category: 'geography',
    taxonomy: ['geography', 'country', name.toLowerCase()],
    description: `Devices whose home location over the last 60 days is in ${name}, from consented location and IP data.`,
    keywords: [...words, 'country', 'nationwide', 'residents'],
    coverage: share,
    cpm: 0.35,
    countries: [code],
  });
}
const cities: [string, string, string, number, string[]][] = [
  ['new_york', 'New York', 'US', 6.0, ['nyc', 'new york city', 'manhattan', 'brooklyn']],
  ['los_angeles', 'Los Angeles', 'US', 4.0, ['la', 'los angeles', 'socal']],
  ['chicago', 'Chicago', 'US', 2.9, ['chicago', 'chi-town']],
  ['houston', 'Houston', 'US', 2.2, ['houston']],
  ['dallas', 'Dallas-Fort Worth', 'US', 2.4, ['dallas', 'fort worth', 'dfw']],
  ['miami', 'Miami', 'US', 1.9, ['miami', 'south florida']],
  ['san_francisco', 'San Francisco Bay Area', 'US', 2.3, ['san francisco', 'bay area', 'sf', 'silicon valley']],
  ['seattle', 'Seattle', 'US', 1.3, ['seattle']],
  ['boston', 'Boston', 'US', 1.5, ['boston']],
  ['atlanta', 'Atlanta', 'US', 1.9, ['atlanta']],
  ['washington_dc', 'Washington, D.C.', 'US', 1.9, ['washington dc', 'dc', 'dmv']],
  ['denver', 'Denver', 'US', 0.9, ['denver']],
  ['phoenix', 'Phoenix', 'US', 1.5, ['phoenix']],
  ['toronto', 'Toronto', 'CA', 6.2 / 10, ['toronto', 'gta']],
  ['vancouver', 'Vancouver', 'CA', 0.3, ['vancouver']],
  ['montreal', 'Montreal', 'CA', 0.4, ['montreal']],
  ['london', 'London', 'GB', 1.4, ['london', 'greater london']],
  ['manchester', 'Manchester', 'GB', 0.4, ['manchester']],
  ['birmingham', 'Birmingham', 'GB', 0.4, ['birmingham']],
  ['paris', 'Paris', 'FR', 1.6, ['paris', 'ile de france']],
  ['lyon', 'Lyon', 'FR', 0.3, ['lyon']],
  ['berlin', 'Berlin', 'DE', 0.5, ['berlin']],
  ['munich', 'Munich', 'DE', 0.4, ['munich', 'munchen']],
  ['hamburg', 'Hamburg', 'DE', 0.3, ['hamburg']],
  ['madrid', 'Madrid', 'ES', 0.9, ['madrid']],
  ['barcelona', 'Barcelona', 'ES', 0.7, ['barcelona']],
  ['rome', 'Rome', 'IT', 0.5, ['rome', 'roma']],
  ['milan', 'Milan', 'IT', 0.6, ['milan', 'milano']],
  ['amsterdam', 'Amsterdam', 'NL', 0.3, ['amsterdam']],
  ['sydney', 'Sydney', 'AU', 0.7, ['sydney']],
  ['melbourne', 'Melbourne', 'AU', 0.7, ['melbourne']],
  ['tokyo', 'Tokyo', 'JP', 4.8, ['tokyo']],
  ['osaka', 'Osaka', 'JP', 2.4, ['osaka']],
  ['singapore', 'Singapore', 'SG', 0.5, ['singapore']],
  ['dubai', 'Dubai', 'AE', 0.4, ['dubai']],
  ['mexico_city', 'Mexico City', 'MX', 2.6, ['mexico city', 'cdmx']],
  ['sao_paulo', 'São Paulo', 'BR', 2.9, ['sao paulo', 'são paulo']],
  ['mumbai', 'Mumbai', 'IN', 2.7, ['mumbai', 'bombay']],
  ['stockholm', 'Stockholm', 'SE', 0.2, ['stockholm']],
  ['dublin', 'Dublin', 'IE', 0.2, ['dublin']],
];
for (const [id, name, code, share, words] of cities) {
  add(providers.geopulse, {
    id: `geo_metro_${id}`,
    name: `${name} metro area`,
    category: 'geography',
    taxonomy: ['geography', 'city', name.toLowerCase()],
    description: `Devices whose home location is in the ${name} metropolitan area, from consented location data (refreshed weekly).`,
    keywords: [...words, 'city', 'metro', 'local', 'urban'],
    coverage: share,
    cpm: 0.5,
    countries: [code],
  });
  if (share >= 1.4)
    add(providers.geopulse, {
      id: `geo_visitors_${id}`,
      name: `Recent visitors to ${name}`,
      category: 'geography',
      taxonomy: ['geography', 'visitors', name.toLowerCase()],
      description: `People who visited ${name} in the last 30 days but live elsewhere.`,
      keywords: [...words, 'visitors', 'tourists'],
      coverage: share / 3,
      cpm: 1.2,
      countries: [code],
    });
}
for (const [id, name, share, words] of [
  ['urban', 'Urban residents', 31, ['urban', 'city dwellers', 'downtown']],
  ['suburban', 'Suburban residents', 44, ['suburban', 'suburbs', 'commuter belt']],
  ['rural', 'Rural residents', 19, ['rural', 'countryside', 'small towns']],
] as const) {
  add(providers.geopulse, {
    id: `geo_${id}`,
    name,
    category: 'geography',
    taxonomy: ['geography', 'density', id],
    description: `${name}, by the population density of the home location.`,
    keywords: [...words],
    coverage: share,
    cpm: 0.4,
    countries: ['US', 'CA', 'GB', 'DE', 'FR', 'AU'],
  });
}

// ---- Behaviours ---------------------------------------------------------------------------
const behaviours: [Provider, string, string, string, string[], number, number][] = [
  [
    providers.shopwave,
    'online_shoppers',
    'Frequent online shoppers',
    'placed 5 or more online orders in the last 90 days',
    ['online shopping', 'ecommerce', 'frequent shoppers'],
    28,
    1.4,
  ],
  [
    providers.shopwave,
    'coupon_users',
    'Coupon and deal seekers',
    'redeem coupons and promo codes often',
    ['coupons', 'deals', 'bargain hunters', 'discounts', 'value shoppers'],
    19,
    1.2,
  ],
  [
    providers.shopwave,
    'premium_buyers',
    'Premium brand buyers',
    'buy premium-priced brands across categories',
    ['premium', 'luxury shoppers', 'high spenders'],
    9,
    2.2,
  ],
  [
    providers.shopwave,
    'warehouse_club',
    'Warehouse club shoppers',
    'shop at warehouse clubs monthly',
    ['warehouse club', 'bulk buyers'],
    14,
    1.2,
  ],
  [
    providers.shopwave,
    'organic_grocery',
    'Organic grocery buyers',
    'regularly buy organic groceries',
    ['organic', 'natural foods', 'healthy eating'],
    12,
    1.5,
  ],
  [
    providers.shopwave,
    'subscription_boxes',
    'Subscription box buyers',
    'hold one or more subscription boxes',
    ['subscription box', 'subscriptions'],
    7,
    1.6,
  ],
  [
    providers.shopwave,
    'bnpl_users',
    'Buy-now-pay-later users',
    'paid with a BNPL service in the last 90 days',
    ['bnpl', 'buy now pay later'],
    11,
    1.5,
  ],
  [
    providers.shopwave,
    'diy_store',
    'Home improvement store shoppers',
    'bought from home improvement stores in the last 60 days',
    ['hardware store', 'diy shoppers', 'home improvement'],
    17,
    1.3,
  ],
  [
    providers.shopwave,
    'pet_store',
    'Pet store shoppers',
    'bought pet supplies in the last 60 days',
    ['pet supplies', 'pet store'],
    20,
    1.1,
  ],
  [
    providers.shopwave,
    'charitable_donors',
    'Charitable donors',
    'donated to charities in the last 12 months',
    ['donors', 'charity', 'philanthropy', 'giving'],
    13,
    1.6,
  ],
  [
    providers.shopwave,
    'cpg_loyalists',
    'Household CPG brand loyalists',
    'repeat-buy the same household brands',
    ['cpg', 'brand loyal', 'household goods'],
    22,
    1.0,
  ],
  [
    providers.geopulse,
    'qsr_diners',
    'Frequent fast-food diners',
    'visited quick-service restaurants 4 or more times in the last month',
    ['fast food', 'qsr', 'quick service'],
    24,
    0.9,
  ],
  [
    providers.geopulse,
    'coffee_shop',
    'Coffee shop regulars',
    'visit coffee shops weekly',
    ['coffee shop', 'cafe regulars'],
    18,
    0.9,
  ],
  [
    providers.geopulse,
    'gym_goers',
    'Gym-goers',
    'visit a gym or fitness studio weekly',
    ['gym', 'fitness club', 'health club'],
    12,
    1.1,
  ],
  [
    providers.geopulse,
    'frequent_flyers',
    'Frequent flyers',
    'were seen at airports 4 or more times in the last 90 days',
    ['frequent flyers', 'airport', 'flyers'],
    4,
    2.0,
  ],
  [
    providers.geopulse,
    'commuters_transit',
    'Public transit commuters',
    'commute by train, subway or bus',
    ['commuters', 'public transport', 'subway', 'train'],
    10,
    0.8,
  ],
  [
    providers.geopulse,
    'commuters_car',
    'Car commuters',
    'drive to work daily',
    ['drivers', 'commuters', 'driving'],
    38,
    0.6,
  ],
  [
    providers.geopulse,
    'stadium_visitors',
    'Stadium and arena visitors',
    'attended a live sports event or concert in the last 90 days',
    ['stadium', 'arena', 'live events', 'sports fans'],
    7,
    1.4,
  ],
  [
    providers.geopulse,
    'mall_shoppers',
    'Shopping mall visitors',
    'visit shopping malls regularly',
    ['mall', 'shopping centre'],
    21,
    0.8,
  ],
  [
    providers.geopulse,
    'luxury_retail_visitors',
    'Luxury retail visitors',
    'visited luxury boutiques in the last 60 days',
    ['luxury', 'boutiques', 'high end retail'],
    2,
    2.4,
  ],
  [
    providers.geopulse,
    'ev_charging',
    'EV charging station visitors',
    'were seen at EV charging stations',
    ['ev charging', 'electric car drivers', 'ev owners'],
    1.5,
    2.0,
  ],
  [
    providers.geopulse,
    'dealership_visitors',
    'Car dealership visitors',
    'visited a car dealership in the last 30 days',
    ['car dealership', 'dealer visits', 'test drive'],
    2.2,
    3.0,
  ],
  [
    providers.geopulse,
    'weekend_travelers',
    'Weekend road trippers',
    'take frequent weekend trips by car',
    ['road trip', 'weekend trips'],
    8,
    1.2,
  ],
  [
    providers.streamscope,
    'cord_cutters',
    'Cord cutters',
    'stream without a pay-TV subscription',
    ['cord cutters', 'cord nevers', 'streaming only', 'no cable'],
    34,
    1.2,
  ],
  [
    providers.streamscope,
    'heavy_streamers',
    'Heavy streamers',
    'stream more than 4 hours a day',
    ['heavy streamers', 'binge watchers', 'ctv'],
    18,
    1.4,
  ],
  [
    providers.streamscope,
    'light_tv',
    'Light TV viewers',
    'watch little linear TV',
    ['light viewers', 'hard to reach', 'unreachable by tv'],
    22,
    1.6,
  ],
  [
    providers.streamscope,
    'mobile_gamers',
    'Mobile gamers',
    'play mobile games daily',
    ['mobile games', 'casual gamers'],
    27,
    1.0,
  ],
  [
    providers.streamscope,
    'late_night',
    'Late-night viewers',
    'watch mostly after 10 pm',
    ['late night', 'night owls'],
    15,
    1.0,
  ],
  [
    providers.streamscope,
    'live_sports_viewers',
    'Live sports viewers',
    'watch live sports every week',
    ['live sports', 'sports viewers', 'game day'],
    25,
    1.6,
  ],
  [
    providers.streamscope,
    'news_viewers',
    'News viewers',
    'watch news daily',
    ['news', 'news junkies', 'current affairs'],
    29,
    1.0,
  ],
  [
    providers.streamscope,
    'kids_content_households',
    'Households streaming kids content',
    "stream children's programming weekly",
    ['kids tv', 'family viewing', 'children'],
    16,
    1.2,
  ],
  [
    providers.streamscope,
    'podcast_listeners',
    'Weekly podcast listeners',
    'listen to podcasts weekly',
    ['podcasts', 'audio', 'listeners'],
    24,
    1.1,
  ],
  [
    providers.ledgerline,
    'high_spenders',
    'High card spenders',
    'spend in the top quintile on cards, from aggregated and anonymised spend panels',
    ['big spenders', 'high spend', 'affluent'],
    12,
    2.2,
  ],
  [
    providers.ledgerline,
    'travel_spenders',
    'Heavy travel spenders',
    'spend heavily on travel',
    ['travel spend', 'frequent travellers'],
    6,
    2.4,
  ],
  [
    providers.ledgerline,
    'dining_spenders',
    'Frequent restaurant spenders',
    'spend heavily at restaurants',
    ['dining out', 'restaurants'],
    14,
    1.6,
  ],
  [
    providers.ledgerline,
    'mobile_banking',
    'Mobile-first bankers',
    'bank mostly through mobile apps',
    ['mobile banking', 'digital banking', 'fintech'],
    33,
    1.2,
  ],
];
for (const [provider, id, name, how, words, share, cpm] of behaviours) {
  add(provider, {
    id: `beh_${id}`,
    name,
    category: 'behaviours',
    taxonomy: ['behaviours', name.toLowerCase()],
    description: `People who ${how}.`,
    keywords: [...words, 'behaviour', 'behavior'],
    coverage: share,
    cpm,
  });
}

// ---- B2B firmographics --------------------------------------------------------------------
const sizes: [string, string, number, number][] = [
  ['1_10', '1-10 employees', 9, 4],
  ['11_50', '11-50 employees', 6, 5],
  ['51_200', '51-200 employees', 4, 6],
  ['201_1000', '201-1,000 employees', 3.5, 7],
  ['1001_5000', '1,001-5,000 employees', 2.5, 8],
  ['5000_plus', '5,000+ employees', 4, 9],
];
const industries: [string, string, string[]][] = [
  ['healthcare', 'Healthcare', ['hospitals', 'healthcare', 'medical']],
  ['financial_services', 'Financial services', ['banking', 'fintech', 'insurance', 'financial services']],
  ['manufacturing', 'Manufacturing', ['manufacturing', 'industrial', 'factories']],
  ['retail', 'Retail', ['retail', 'ecommerce', 'stores']],
  ['software', 'Software and technology', ['software', 'saas', 'tech companies', 'it']],
  ['education', 'Education', ['education', 'schools', 'universities', 'edtech']],
  ['government', 'Government and public sector', ['government', 'public sector']],
  ['construction', 'Construction', ['construction', 'contractors', 'building']],
  ['logistics', 'Transportation and logistics', ['logistics', 'shipping', 'supply chain', 'trucking']],
  ['hospitality', 'Hospitality', ['hotels', 'restaurants', 'hospitality']],
  ['legal', 'Legal services', ['law firms', 'legal', 'lawyers']],
  ['real_estate', 'Commercial real estate', ['commercial real estate', 'property management']],
  ['energy', 'Energy and utilities', ['energy', 'utilities', 'oil and gas', 'renewables']],
  ['telecom', 'Telecommunications', ['telecom', 'telco', 'carriers']],
  ['media', 'Media and entertainment', ['media', 'publishing', 'entertainment']],
  ['agriculture', 'Agriculture', ['agriculture', 'farming', 'agribusiness']],
  ['automotive', 'Automotive industry', ['automotive', 'dealerships', 'auto manufacturers']],
  ['pharma', 'Pharma and life sciences', ['pharma', 'biotech', 'life sciences']],
  ['nonprofit', 'Nonprofits', ['nonprofit', 'ngo', 'charities']],
  ['professional_services', 'Professional services', ['consulting', 'accounting', 'agencies', 'professional services']],
];
const functions: [string, string, string[]][] = [
  ['it', 'IT', ['it', 'information technology', 'sysadmin', 'cio']],
  ['marketing', 'Marketing', ['marketing', 'marketers', 'cmo', 'brand managers']],
  ['sales', 'Sales', ['sales', 'account executives', 'business development']],
  ['finance', 'Finance', ['finance', 'cfo', 'accountants', 'controllers']],
  ['hr', 'Human resources', ['hr', 'human resources', 'recruiting', 'talent']],
  ['operations', 'Operations', ['operations', 'coo', 'ops']],
  ['engineering', 'Engineering', ['engineers', 'developers', 'software engineers', 'cto']],
  ['procurement', 'Procurement', ['procurement', 'purchasing', 'buyers']],
  ['legal', 'Legal', ['legal', 'general counsel', 'compliance']],
  ['product', 'Product management', ['product managers', 'product']],
  ['data', 'Data and analytics', ['data scientists', 'analytics', 'data engineers']],
  ['security', 'Information security', ['security', 'ciso', 'cybersecurity']],
  ['customer_support', 'Customer support', ['customer service', 'support', 'customer success']],
  ['design', 'Design', ['designers', 'ux', 'creative']],
];
const seniorities: [string, string, string[], number, number][] = [
  ['c_suite', 'C-suite executives', ['c-suite', 'ceo', 'executives', 'c-level', 'decision makers'], 0.8, 12],
  ['vp', 'Vice presidents', ['vp', 'vice president', 'senior leaders'], 1.2, 10],
  ['director', 'Directors', ['directors', 'heads of'], 2.5, 9],
  ['manager', 'Managers', ['managers', 'team leads'], 7, 7],
  ['individual_contributor', 'Individual contributors', ['staff', 'individual contributors', 'specialists'], 18, 5],
  ['owner', 'Business owners', ['business owners', 'founders', 'smb owners', 'small business owners'], 4, 8],
];
const b2bIntent: [string, string, string[], number][] = [
  ['cloud', 'Cloud migration', ['cloud', 'cloud migration', 'aws', 'azure', 'infrastructure']],
  ['cybersecurity', 'Cybersecurity solutions', ['cybersecurity', 'security software', 'endpoint', 'zero trust']],
  ['crm', 'CRM software', ['crm', 'sales software', 'customer relationship management']],
  ['hr_software', 'HR and payroll software', ['hr software', 'payroll', 'hris']],
  ['marketing_automation', 'Marketing automation', ['marketing automation', 'email marketing', 'martech']],
  ['erp', 'ERP systems', ['erp', 'enterprise resource planning', 'accounting software']],
  ['office_space', 'Office space and coworking', ['office space', 'coworking', 'commercial lease']],
  ['fleet', 'Fleet vehicles', ['fleet', 'commercial vehicles', 'vans']],
  ['ai_tools', 'AI and machine learning tools', ['ai', 'machine learning', 'generative ai', 'llm']],
  ['collaboration', 'Collaboration software', ['collaboration', 'video conferencing', 'project management']],
].map(
  ([id, name, words]) => [id as string, name as string, words as string[], 0] as [string, string, string[], number],
);
for (const provider of [
  providers.bizsphere,
  {
    ...providers.bizsphere,
    name: 'Fathom Firmographics',
    domain: 'fathomb2b.example',
    prefix: 'fth',
    countries: ['US', 'GB', 'DE', 'FR', 'NL', 'ES', 'IT', 'JP', 'SG', 'AU'],
  },
]) {
  const source =
    provider.prefix === 'biz'
      ? 'business registries, professional profiles and company websites'
      : 'verified business email activity and company registries';
  for (const [id, name, share, cpm] of sizes)
    add(provider, {
      id: `b2b_size_${id}`,
      name: `Company size: ${name}`,
      category: 'b2b',
      taxonomy: ['b2b', 'company size', name],
      description: `Professionals working at companies with ${name}, from ${source}.`,
      keywords: [
        'company size',
        'employees',
        id === '5000_plus' ? 'enterprise' : id === '1_10' || id === '11_50' ? 'small business' : 'mid-market',
        'b2b',
        'firmographics',
      ],
      coverage: share,
      cpm,
    });
  for (const [id, name, words] of industries)
    add(provider, {
      id: `b2b_industry_${id}`,
      name: `Industry: ${name}`,
      category: 'b2b',
      taxonomy: ['b2b', 'industry', name.toLowerCase()],
      description: `Professionals employed in ${name.toLowerCase()}, from ${source}.`,
      keywords: [...words, 'industry', 'b2b', 'professionals', 'vertical'],
      coverage: 1 + random() * 4,
      cpm: 7,
    });
  for (const [id, name, words] of functions)
    add(provider, {
      id: `b2b_function_${id}`,
      name: `Job function: ${name}`,
      category: 'b2b',
      taxonomy: ['b2b', 'job function', name.toLowerCase()],
      description: `Professionals whose job function is ${name.toLowerCase()}, from ${source}.`,
      keywords: [...words, 'job function', 'b2b', 'professionals', 'decision makers'],
      coverage: 0.8 + random() * 3,
      cpm: 8,
    });
  for (const [id, name, words, share, cpm] of seniorities)
    add(provider, {
      id: `b2b_seniority_${id}`,
      name: `Seniority: ${name}`,
      category: 'b2b',
      taxonomy: ['b2b', 'seniority', name.toLowerCase()],
      description: `${name}, by job title, from ${source}.`,
      keywords: [...words, 'seniority', 'b2b', 'job title'],
      coverage: share,
      cpm,
    });
  if (provider.prefix === 'biz') {
    for (const [id, name, words] of b2bIntent)
      add(provider, {
        id: `b2b_intent_${id}`,
        name: `Business intent: ${name}`,
        category: 'b2b',
        taxonomy: ['b2b', 'business intent', name.toLowerCase()],
        description: `Companies whose employees are researching ${name.toLowerCase()} well above their usual rate this month, from B2B content consumption.`,
        keywords: [...words, 'b2b intent', 'in-market', 'business buyers', 'it decision makers'],
        coverage: 0.3 + random(),
        cpm: 11,
      });
  }
}

// ---- Contextual ---------------------------------------------------------------------------
const contexts: [string, string, string[]][] = [
  ['news', 'General news', ['news', 'headlines', 'current events']],
  ['business_news', 'Business news', ['business news', 'markets', 'economy']],
  ['personal_finance', 'Personal finance articles', ['personal finance', 'budgeting', 'saving money']],
  ['auto_reviews', 'Car reviews and automotive', ['car reviews', 'automotive', 'cars']],
  ['recipes', 'Recipes and cooking', ['recipes', 'cooking', 'food']],
  ['travel_guides', 'Travel guides', ['travel', 'destinations', 'travel guides']],
  ['health_fitness', 'Health and fitness', ['health', 'fitness', 'wellness', 'nutrition']],
  ['parenting', 'Parenting', ['parenting', 'moms', 'dads', 'family']],
  ['tech_reviews', 'Technology and gadget reviews', ['tech', 'gadgets', 'reviews', 'consumer electronics']],
  ['gaming_news', 'Video game news', ['gaming', 'video games', 'game reviews']],
  ['football', 'American football', ['nfl', 'football']],
  ['basketball', 'Basketball', ['nba', 'basketball']],
  ['soccer', 'Soccer', ['soccer', 'football', 'premier league']],
  ['motorsport', 'Motorsport', ['f1', 'racing', 'motorsport']],
  ['entertainment_news', 'Entertainment and celebrity news', ['celebrity', 'entertainment', 'gossip']],
  ['movies_tv', 'Movies and TV', ['movies', 'tv', 'film', 'streaming']],
  ['music', 'Music', ['music', 'albums', 'artists']],
  ['fashion', 'Fashion and style', ['fashion', 'style', 'clothing']],
  ['beauty', 'Beauty', ['beauty', 'makeup', 'skincare']],
  ['home_garden', 'Home and garden', ['home', 'garden', 'decor']],
  ['real_estate', 'Real estate listings and advice', ['real estate', 'property', 'homes']],
  ['education', 'Education and learning', ['education', 'learning', 'courses']],
  ['science', 'Science', ['science', 'space', 'research']],
  ['weather', 'Weather', ['weather', 'forecast']],
  ['pets', 'Pets', ['pets', 'dogs', 'cats']],
  ['outdoors', 'Outdoors', ['outdoors', 'hiking', 'camping']],
  ['diy', 'DIY and how-to', ['diy', 'how to', 'tutorials']],
  ['premium_news', 'Brand-safe premium news', ['brand safe', 'premium news', 'quality journalism']],
  ['luxury', 'Luxury lifestyle', ['luxury', 'lifestyle', 'high end']],
  ['crypto', 'Crypto and web3', ['crypto', 'blockchain', 'web3']],
  ['careers', 'Careers and jobs', ['careers', 'jobs', 'job search']],
  ['small_business', 'Small business', ['small business', 'entrepreneurs', 'smb']],
  ['weddings', 'Weddings', ['weddings', 'bridal', 'wedding planning']],
  ['golf', 'Golf', ['golf']],
  ['wine_food', 'Wine and fine dining', ['wine', 'fine dining', 'restaurants']],
  ['ev_green', 'Electric vehicles and clean energy', ['ev', 'electric vehicles', 'clean energy', 'sustainability']],
];
for (const [id, name, words] of contexts) {
  add(providers.contextly, {
    id: `ctx_${id}`,
    name: `Contextual: ${name}`,
    category: 'contextual',
    taxonomy: ['contextual', name.toLowerCase()],
    description: `Pages and videos about ${name.toLowerCase()}, classified in real time from their text and transcripts; no personal data used.`,
    keywords: [...words, 'contextual', 'content', 'cookieless', 'privacy safe'],
    coverage: 2 + random() * 10,
    cpm: 0.9,
  });
  if (random() < 0.35)
    add(providers.streamscope, {
      id: `ctx_ctv_${id}`,
      name: `CTV contextual: ${name}`,
      category: 'contextual',
      taxonomy: ['contextual', 'ctv', name.toLowerCase()],
      description: `Streaming programmes about ${name.toLowerCase()}, classified from programme metadata and transcripts.`,
      keywords: [...words, 'contextual', 'ctv', 'streaming'],
      coverage: 1 + random() * 6,
      cpm: 1.8,
    });
}

// ---- Custom and owned: this agent's own segments ------------------------------------------
interface Private {
  id: string;
  name: string;
  description: string;
  category: Category;
  taxonomy: string[];
  keywords: string[];
  coverage: number;
  countries: string[];
}
const agentUrl = '/signals/mcp';
const agentPlatforms = (minutes: number) =>
  ['the-trade-desk', 'dv360', 'amazon-dsp'].map((platform) => ({ platform, activation_minutes: minutes }));
function addPrivate(
  type: 'custom' | 'owned',
  who: string[],
  dataProvider: string,
  segment: Private,
  cpm: number,
): void {
  const segmentId = `${type === 'custom' ? 'cst' : 'own'}_${segment.id}`;
  entries.push({
    signal_agent_segment_id: segmentId,
    signal_id: { source: 'agent', agent_url: agentUrl, id: segment.id },
    name: segment.name,
    description: segment.description,
    value_type: 'binary',
    signal_type: type,
    data_provider: dataProvider,
    coverage_percentage: segment.coverage,
    pricing_options: [{ pricing_option_id: `${segmentId}_cpm`, model: 'cpm', cpm, currency: 'USD' }],
    category: segment.category,
    taxonomy: segment.taxonomy,
    keywords: segment.keywords,
    countries: segment.countries,
    platforms: agentPlatforms(type === 'custom' ? 240 : 60),
    ...(type === 'custom' ? { principals: who } : { owner: who[0] }),
  });
}
const customs: [string[], Private, number][] = [
  [
    ['bluepeak-motors'],
    {
      id: 'bluepeak_suv_conquest',
      name: 'Bluepeak Motors: SUV conquest shoppers',
      description:
        "Built for Bluepeak Motors: in-market SUV shoppers who currently own a competing brand, modelled on Bluepeak's past conquest sales.",
      category: 'in_market',
      taxonomy: ['automotive', 'in-market', 'suvs and crossovers'],
      keywords: ['suv', 'conquest', 'competitor owners', 'crossover'],
      coverage: 1.1,
      countries: ['US', 'CA'],
    },
    5.5,
  ],
  [
    ['bluepeak-motors'],
    {
      id: 'bluepeak_ev_lookalikes',
      name: 'Bluepeak Motors: EV test-drive lookalikes',
      description:
        'Built for Bluepeak Motors: lookalikes of people who booked an EV test drive on bluepeak-motors.example.',
      category: 'in_market',
      taxonomy: ['automotive', 'lookalike', 'electric vehicles'],
      keywords: ['ev', 'electric vehicle', 'lookalike', 'test drive'],
      coverage: 2.4,
      countries: ['US'],
    },
    4.8,
  ],
  [
    ['summit-bank'],
    {
      id: 'summit_mass_affluent',
      name: 'Summit Bank: mass-affluent savers',
      description:
        'Built for Summit Bank: households with high savings propensity and $100k-$250k income, excluding current Summit customers.',
      category: 'demographics',
      taxonomy: ['finance', 'custom', 'affluent savers'],
      keywords: ['affluent', 'savers', 'high yield savings', 'wealth'],
      coverage: 6.3,
      countries: ['US'],
    },
    4.2,
  ],
  [
    ['summit-bank', 'public-test'],
    {
      id: 'summit_small_business_owners',
      name: 'Summit Bank: small business owners seeking credit',
      description:
        'Built for Summit Bank and its agency: small business owners researching lines of credit and business cards.',
      category: 'b2b',
      taxonomy: ['b2b', 'custom', 'small business credit'],
      keywords: ['small business', 'business credit', 'smb owners', 'line of credit'],
      coverage: 0.9,
      countries: ['US'],
    },
    7.5,
  ],
  [
    ['harbor-foods'],
    {
      id: 'harbor_healthy_snackers',
      name: 'Harbor Foods: healthy snackers',
      description:
        "Built for Harbor Foods: buyers of better-for-you snacks, from retailer panel data matched to Harbor's category model.",
      category: 'behaviours',
      taxonomy: ['retail', 'custom', 'healthy snacks'],
      keywords: ['healthy snacks', 'snacking', 'better for you', 'cpg'],
      coverage: 8.8,
      countries: ['US', 'CA'],
    },
    3.2,
  ],
  [
    ['public-test'],
    {
      id: 'demo_weekend_getaway_planners',
      name: 'Weekend getaway planners (custom)',
      description:
        "Built for the test deployment's account: people planning a weekend trip within 300 km of home in the next 30 days.",
      category: 'in_market',
      taxonomy: ['travel', 'custom', 'weekend getaways'],
      keywords: ['weekend getaway', 'short break', 'road trip', 'staycation'],
      coverage: 3.3,
      countries: ['US', 'GB'],
    },
    3.8,
  ],
  [
    ['public-test'],
    {
      id: 'demo_home_office_upgraders',
      name: 'Home office upgraders (custom)',
      description: "Built for the test deployment's account: remote workers shopping for desks, chairs and monitors.",
      category: 'in_market',
      taxonomy: ['retail', 'custom', 'home office'],
      keywords: ['home office', 'remote work', 'office chair', 'monitor', 'work from home'],
      coverage: 2.1,
      countries: ['US', 'CA', 'GB'],
    },
    3.5,
  ],
  [
    ['northwind-outfitters', 'public-test'],
    {
      id: 'northwind_trail_runners',
      name: 'Northwind Outfitters: trail runners',
      description:
        'Built for Northwind Outfitters: trail runners and ultra-distance hikers, from race registrations and outdoor app data.',
      category: 'interests',
      taxonomy: ['interests', 'custom', 'trail running'],
      keywords: ['trail running', 'ultra', 'runners', 'hiking'],
      coverage: 1.6,
      countries: ['US', 'CA'],
    },
    4.0,
  ],
];
for (const [who, segment, cpm] of customs) addPrivate('custom', who, 'Meridian Signals (custom models)', segment, cpm);
const owned: [string, string, Private][] = [
  [
    'northwind-outfitters',
    'Northwind Outfitters (first-party)',
    {
      id: 'northwind_site_visitors_30d',
      name: 'Northwind: site visitors, last 30 days',
      description: "Northwind Outfitters' own site visitors in the last 30 days, from its tag.",
      category: 'behaviours',
      taxonomy: ['first party', 'site visitors'],
      keywords: ['site visitors', 'retargeting', 'first party', 'website visitors'],
      coverage: 0.6,
      countries: ['US', 'CA'],
    },
  ],
  [
    'northwind-outfitters',
    'Northwind Outfitters (first-party)',
    {
      id: 'northwind_loyalty_members',
      name: 'Northwind: loyalty members',
      description: "Northwind Outfitters' loyalty programme members, from its CRM (hashed emails).",
      category: 'behaviours',
      taxonomy: ['first party', 'crm', 'loyalty'],
      keywords: ['loyalty members', 'crm', 'customers', 'first party'],
      coverage: 0.4,
      countries: ['US', 'CA'],
    },
  ],
  [
    'northwind-outfitters',
    'Northwind Outfitters (first-party)',
    {
      id: 'northwind_cart_abandoners',
      name: 'Northwind: cart abandoners, last 14 days',
      description: 'Visitors who left items in their Northwind Outfitters cart in the last 14 days.',
      category: 'behaviours',
      taxonomy: ['first party', 'cart abandoners'],
      keywords: ['cart abandoners', 'retargeting', 'abandoned cart'],
      coverage: 0.1,
      countries: ['US', 'CA'],
    },
  ],
  [
    'harbor-foods',
    'Harbor Foods (first-party)',
    {
      id: 'harbor_recipe_club',
      name: 'Harbor Foods: recipe club subscribers',
      description: "Subscribers to Harbor Foods' recipe newsletter, from its CRM.",
      category: 'interests',
      taxonomy: ['first party', 'crm', 'recipes'],
      keywords: ['recipe club', 'newsletter', 'home cooks', 'first party'],
      coverage: 0.3,
      countries: ['US'],
    },
  ],
  [
    'public-test',
    'Demo Advertiser (first-party)',
    {
      id: 'demo_app_users',
      name: 'Demo Advertiser: active app users',
      description: "The test deployment account's own active app users in the last 30 days.",
      category: 'behaviours',
      taxonomy: ['first party', 'app users'],
      keywords: ['app users', 'active users', 'first party'],
      coverage: 0.8,
      countries: ['US', 'GB'],
    },
  ],
  [
    'public-test',
    'Demo Advertiser (first-party)',
    {
      id: 'demo_past_purchasers',
      name: 'Demo Advertiser: past purchasers',
      description: "Customers of the test deployment's account who bought in the last 12 months, from its CRM.",
      category: 'behaviours',
      taxonomy: ['first party', 'crm', 'purchasers'],
      keywords: ['past purchasers', 'customers', 'crm', 'existing customers', 'first party'],
      coverage: 0.5,
      countries: ['US', 'GB'],
    },
  ],
];
for (const [who, dataProvider, segment] of owned) addPrivate('owned', [who], dataProvider, segment, 0);

const header = [
  "# The signals agent's demo catalog: generated by scripts/generate-demo-signals.ts (edit that and rerun).",
  '# Invented data providers on .example domains, on real platforms by the identifiers buyers name them with',
  '# (the-trade-desk, dv360, amazon-dsp, yahoo-dsp, xandr, google-ad-manager, magnite, pubmatic,',
  '# index-exchange); custom signals name the principal accounts that may',
  '# see them, owned signals their one owner. category, taxonomy, keywords, countries, platforms,',
  '# principals and owner stay in the catalog; the rest is what get_signals sends.',
  '',
].join('\n');
const out = join(import.meta.dirname, '../src/agents/signals/catalog/demo-signals.yaml');
const document = new Document({ signals: entries }, { aliasDuplicateObjects: false });
// Lists of words and small mappings (ids, prices, platforms) on one line each keep the file readable.
visit(document, {
  Map(_key, node) {
    if (node.items.every((pair) => isScalar(pair.value))) node.flow = true;
  },
  Seq(_key, node) {
    if (node.items.every((item) => isScalar(item))) node.flow = true;
  },
});
writeFileSync(out, header + document.toString({ lineWidth: 0, flowCollectionPadding: false }));
console.log(`${entries.length} signals written to ${out}`);

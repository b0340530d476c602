/**
 * The words planners use that catalogs do not: what a brief's word means in the catalog's terms.
 * Kept as data so the next synonym is one line, not code.
 */

/** A brief's word or phrase → catalog words searched besides it (at a lower weight). */
export const synonyms: Readonly<Record<string, string>> = {
  'cord cutters': 'cord cutters streaming',
  'cord-cutters': 'cord cutters streaming',
  'c-suite': 'c-suite executives',
  ceo: 'c-suite executives',
  ceos: 'c-suite executives',
  cfo: 'c-suite executives finance',
  cfos: 'c-suite executives finance',
  cmo: 'c-suite executives marketing',
  cmos: 'c-suite executives marketing',
  cto: 'c-suite executives engineering',
  cio: 'c-suite executives it',
  ciso: 'information security',
  cisos: 'information security',
  execs: 'executives',
  'decision makers': 'directors vice presidents c-suite',
  'decision-makers': 'directors vice presidents c-suite',
  'it decision makers': 'it',
  smb: 'small business',
  smbs: 'small business',
  startup: 'small business 1-10 employees',
  startups: 'small business 1-10 employees',
  enterprise: '5,000+ employees large',
  enterprises: '5,000+ employees large',
  'big companies': '5,000+ employees large',
  'large companies': '5,000+ employees large',
  'small businesses': 'small business',
  'house': 'home',
  'houses': 'home',
  'moving': 'movers',
  'move': 'movers',
  'relocating': 'movers',
  'car': 'vehicles auto',
  'cars': 'vehicles auto',
  'automobile': 'vehicles auto',
  ev: 'electric vehicles',
  evs: 'electric vehicles',
  'tv': 'television',
  'kids': 'children',
  'children': 'kids',
  'baby': 'babies',
  'pregnant': 'expecting parents',
  'expecting': 'expecting parents',
  'wedding': 'weddings engaged',
  'engagement': 'engaged',
  'getting married': 'engaged weddings',
  'vacation': 'vacations travel',
  'holiday': 'holiday vacations',
  'trip': 'trips travel',
  'flights': 'flights frequent flyers',
  'gamers': 'gamers gaming',
  'gaming': 'gamers video',
  'joggers': 'runners',
  'jogging': 'runners',
  'running': 'runners',
  'pets': 'pet owners',
  'puppy': 'dog owners pet',
  'kitten': 'cat owners pet',
  'dogs': 'dog',
  'cats': 'cat',
  'football': 'american football soccer',
  'nfl': 'american football',
  'nba': 'basketball',
  'f1': 'motorsport',
  'formula 1': 'motorsport',
  'vegan': 'plant-based vegan',
  'vegetarian': 'plant-based',
  'green': 'eco-conscious',
  'sustainable': 'eco-conscious',
  'sustainability': 'eco-conscious',
  'bargain hunters': 'coupon and deal seekers',
  'deal hunters': 'coupon and deal seekers',
  'crypto': 'cryptocurrency crypto',
  'bitcoin': 'cryptocurrency crypto',
  'retirees': 'retired retirement',
  'newlyweds': 'newlyweds',
  'homebuyers': 'home buyers',
  'home buyers': 'home shoppers buyers',
  'mortgage': 'mortgages',
  'insurance': 'insurance',
  'loan': 'loans',
  'bank account': 'checking and savings accounts',
  'credit card': 'credit cards',
  'phone': 'smartphones',
  'phones': 'smartphones',
  'smartwatch': 'wearables smartwatches',
  'watches': 'watches',
  'jewellery': 'jewelry',
  'grads': 'graduates',
  'college students': 'starting college students',
  'students': 'college',
  'wine': 'wine',
  'beer': 'craft beer',
  'coffee': 'coffee',
  'news': 'news',
  'recipes': 'recipes cooking',
  'cooking': 'cooks cooking',
  'foodies': 'foodies dining',
  'fashion': 'fashion style',
  'makeup': 'beauty cosmetics',
  'cosmetics': 'beauty cosmetics',
  'skin care': 'skincare',
  'diy': 'diy how-to',
  'home improvement': 'home improvement renovation diy',
  'renovation': 'home improvement renovation',
  'gym': 'gym-goers fitness',
  'workout': 'fitness',
  'exercise': 'fitness',
  'outdoorsy': 'outdoor hiking',
  'camping': 'camping outdoor',
  'ski': 'ski snow',
  'skiing': 'ski snow',
  bookworm: 'book lovers readers',
  bookworms: 'book lovers readers',
  readers: 'book lovers',
  'caring for': 'caregivers',
  'looking after': 'caregivers',
  'elderly parent': 'caregivers',
  'elderly parents': 'caregivers',
  'aging parents': 'caregivers',
  techies: 'tech early adopters',
  geeks: 'tech early adopters',
  gadget: 'gadgets tech',
  'early adopter': 'early adopters',
  hr: 'human resources',
  staff: 'employees',
  headcount: 'employees',
  yogis: 'yoga',
  wellness: 'fitness health yoga',
  'road warriors': 'business travellers frequent flyers',
  fly: 'flyers flights',
  'for work': 'business',
  'about to move': 'pre-movers',
  'moving soon': 'pre-movers',
  'planning a move': 'pre-movers',
  'selling their home': 'likely home sellers',
  'selling their house': 'likely home sellers',
  'college-educated': "bachelor's degree graduate",
  'college educated': "bachelor's degree graduate",
  'young kids': 'preschoolers toddlers young children',
  'little ones': 'preschoolers toddlers young children',
  toddlers: 'toddlers babies',
  hispanic: 'spanish-speaking',
  latino: 'spanish-speaking',
  latinos: 'spanish-speaking',
  latinx: 'spanish-speaking',
  petrolheads: 'car enthusiasts motorsport',
  gearheads: 'car enthusiasts motorsport',
  'near retirement': 'approaching retirement',
  'nearing retirement': 'approaching retirement',
  'from retirement': 'approaching retirement',
  'pre-retirees': 'approaching retirement',
  workforce: 'new job careers',
  'first job': 'new job',
  pickup: 'pickup trucks',
  truck: 'pickup trucks',
  trucks: 'pickup trucks',
  'ps5': 'gaming consoles',
  'xbox': 'gaming consoles',
  'playstation': 'gaming consoles',
  'nintendo': 'gaming consoles',
  purchasing: 'procurement',
  'last month': 'last 30 days',
  'past month': 'last 30 days',
  'last 3 months': 'last 90 days',
  'past few months': 'last 90 days',
};

/**
 * Country names (and people's plural demonyms) a brief may use → ISO 3166-1 alpha-2, matched
 * case-insensitively. Adjectives stay out: "Spanish-speaking", "German cars" and "American
 * football" name no country to buy in.
 */
export const countryNames: Readonly<Record<string, string>> = {
  'united states': 'US', usa: 'US', america: 'US', americans: 'US', 'u.s.': 'US', 'u.s.a.': 'US',
  canada: 'CA', canadians: 'CA',
  'united kingdom': 'GB', uk: 'GB', 'u.k.': 'GB', britain: 'GB', 'great britain': 'GB', england: 'GB', brits: 'GB',
  germany: 'DE', germans: 'DE', deutschland: 'DE',
  france: 'FR',
  spain: 'ES', espana: 'ES',
  italy: 'IT', italians: 'IT',
  netherlands: 'NL', holland: 'NL',
  ireland: 'IE',
  sweden: 'SE',
  poland: 'PL',
  australia: 'AU', australians: 'AU', aussie: 'AU', aussies: 'AU',
  'new zealand': 'NZ',
  japan: 'JP',
  india: 'IN',
  brazil: 'BR', brazilians: 'BR',
  mexico: 'MX', mexicans: 'MX',
  singapore: 'SG',
  'south africa': 'ZA',
  'united arab emirates': 'AE', uae: 'AE', emirates: 'AE',
};

/** Upper-case codes a brief may write (`US`, `UK`): only as written, since "us" is a pronoun. */
export const countryCodes: Readonly<Record<string, string>> = { US: 'US', USA: 'US', UK: 'GB', GB: 'GB', DE: 'DE', FR: 'FR', ES: 'ES', IT: 'IT', NL: 'NL', CA: 'CA', AU: 'AU', JP: 'JP', MX: 'MX', BR: 'BR', IN: 'IN', UAE: 'AE' };

/** Other names of the catalog's places (and states, for their metros) → the places as the catalog's taxonomy names them. */
export const placeAliases: Readonly<Record<string, string | readonly string[]>> = {
  texas: ['houston', 'dallas-fort worth'], california: ['los angeles', 'san francisco bay area'], florida: ['miami'], illinois: ['chicago'], georgia: ['atlanta'],
  massachusetts: ['boston'], arizona: ['phoenix'], colorado: ['denver'], 'washington state': ['seattle'], ontario: ['toronto'], quebec: ['montreal'],
  'british columbia': ['vancouver'], bavaria: ['munich'], catalonia: ['barcelona'], lombardy: ['milan'], bombay: 'mumbai', 'big apple': 'new york',
  nyc: 'new york', 'new york city': 'new york', manhattan: 'new york', brooklyn: 'new york',
  la: 'los angeles', 'l.a.': 'los angeles', socal: 'los angeles',
  sf: 'san francisco bay area', 'san francisco': 'san francisco bay area', 'bay area': 'san francisco bay area', 'silicon valley': 'san francisco bay area',
  dc: 'washington, d.c.', 'd.c.': 'washington, d.c.', 'washington dc': 'washington, d.c.', 'washington d.c.': 'washington, d.c.',
  dallas: 'dallas-fort worth', dfw: 'dallas-fort worth', 'fort worth': 'dallas-fort worth',
  'sao paulo': 'são paulo',
  'chi-town': 'chicago',
};

/** Words that say the buyer wants people about to buy (the in-market family). */
export const inMarketPhrases = ['in-market', 'in market', 'intenders', 'intender', 'shopping for', 'shopping around', 'looking to buy', 'looking for a', 'about to buy', 'ready to buy', 'planning to buy', 'considering', 'researching', 'purchase intent', 'buyers of', 'want to buy', 'in the market'];

/** Words that say a life event (recent or coming). */
export const lifeEventPhrases = ['recently', 'just moved', 'about to move', 'new movers', 'moving house', 'life event', 'life stage', 'newly', 'just got', 'getting married', 'expecting', 'new parents', 'new job', 'retiring'];

/** Words that mean people who were at a place (rather than live there). */
export const visitorWords = ['visitors', 'visiting', 'visited', 'tourists', 'travellers to', 'travelers to', 'trip to'];

/** Words that ask for content (contextual) rather than people. */
export const contextualWords = ['contextual', 'content', 'articles', 'pages', 'context', 'alongside', 'adjacent', 'next to', 'editorial'];

/** Words that ask for businesses and their people (B2B). */
export const b2bWords = ['b2b', 'business decision', 'decision makers', 'decision-makers', 'professionals', 'companies', 'employees', 'firmographic', 'firmographics', 'industry', 'job function', 'seniority', 'executives', 'smb', 'smbs', 'enterprise'];

/** Words that name a gender. */
export const genderWords: Readonly<Record<string, 'female' | 'male'>> = {
  women: 'female', woman: 'female', female: 'female', females: 'female', ladies: 'female', moms: 'female', mums: 'female', mothers: 'female', girls: 'female',
  men: 'male', man: 'male', male: 'male', males: 'male', guys: 'male', dads: 'male', fathers: 'male', boys: 'male',
};

/** Generations and life stages that stand for an age range. */
export const ageWords: Readonly<Record<string, readonly [number, number]>> = {
  'gen z': [18, 27], 'generation z': [18, 27], zoomers: [18, 27], 'young adults': [18, 29], teens: [13, 19],
  millennials: [28, 43], millennial: [28, 43], 'gen y': [28, 43],
  'gen x': [44, 59], 'generation x': [44, 59], 'middle-aged': [40, 60], 'middle aged': [40, 60],
  boomers: [60, 80], 'baby boomers': [60, 80], seniors: [65, 99], retirees: [62, 99], 'older adults': [55, 99],
  twenties: [20, 29], 'early twenties': [20, 24], 'mid twenties': [24, 27], 'late twenties': [26, 29],
  thirties: [30, 39], 'early thirties': [30, 34], 'mid thirties': [34, 37], 'late thirties': [36, 39],
  forties: [40, 49], 'early forties': [40, 44], 'late forties': [46, 49], fifties: [50, 59], sixties: [60, 69],
};

/** Words that stand for an income range (in the brief's currency, thousands). */
export const incomeWords: Readonly<Record<string, readonly [number, number]>> = {
  affluent: [150, Infinity], wealthy: [150, Infinity], 'high income': [150, Infinity], 'high-income': [150, Infinity], 'high net worth': [250, Infinity], hnw: [250, Infinity], rich: [150, Infinity], 'upper income': [150, Infinity],
  'mass affluent': [100, 250], 'middle income': [50, 150], 'middle class': [50, 150], 'middle-income': [50, 150],
  'low income': [0, 50], 'low-income': [0, 50], 'lower income': [0, 50], 'budget conscious': [0, 50], 'budget-conscious': [0, 50],
};

/** Words no signal is told apart by. */
export const stopWords = new Set([
  'a', 'an', 'and', 'are', 'at', 'be', 'by', 'for', 'from', 'in', 'into', 'is', 'of', 'on', 'or', 'the', 'to', 'with', 'who', 'whose', 'that', 'this', 'these', 'those', 'their', 'them', 'they',
  'our', 'we', 'us', 'want', 'wants', 'need', 'needs', 'looking', 'find', 'target', 'targeting', 'audience', 'audiences', 'segment', 'segments', 'signal', 'signals', 'people', 'consumers',
  'campaign', 'reach', 'ads', 'ad', 'brand', 'around', 'like', 'some', 'any', 'all', 'very', 'who', 'about', 'interested', 'into', 'based', 'living', 'live', 'lives', 'plus', 'also', 'year', 'years', 'old', 'olds', 'aged', 'age', 'ages',
]);

/** Words that say which kind of signal a brief asks for: intent, a life event, visits, content, businesses. */

/** Words that say the buyer wants people about to buy (the in-market family). */
export const inMarketPhrases = [
  'in-market',
  'in market',
  'intenders',
  'intender',
  'shopping for',
  'shopping around',
  'looking to buy',
  'looking for a',
  'about to buy',
  'ready to buy',
  'planning to buy',
  'considering',
  'researching',
  'purchase intent',
  'buyers of',
  'want to buy',
  'in the market',
];

/** Words that say a life event (recent or coming). */
export const lifeEventPhrases = [
  'recently',
  'just moved',
  'about to move',
  'new movers',
  'moving house',
  'life event',
  'life stage',
  'newly',
  'just got',
  'getting married',
  'expecting',
  'new parents',
  'new job',
  'retiring',
];

/** Words that mean people who were at a place (rather than live there). */
export const visitorWords = ['visitors', 'visiting', 'visited', 'tourists', 'travellers to', 'travelers to', 'trip to'];

/** Words that ask for content (contextual) rather than people. */
export const contextualWords = [
  'contextual',
  'content',
  'articles',
  'pages',
  'context',
  'alongside',
  'adjacent',
  'next to',
  'editorial',
];

/** Words that ask for businesses and their people (B2B). */
export const b2bWords = [
  'b2b',
  'business decision',
  'decision makers',
  'decision-makers',
  'professionals',
  'companies',
  'employees',
  'firmographic',
  'firmographics',
  'industry',
  'job function',
  'seniority',
  'executives',
  'smb',
  'smbs',
  'enterprise',
];

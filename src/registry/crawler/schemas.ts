import { Type } from 'typebox';

export const CrawlRequestBody = Type.Object(
  {
    domain: Type.String({
      minLength: 1,
      maxLength: 300,
      description: 'The domain to crawl; trimmed and lowercased.',
      examples: ['example.com'],
    }),
  },
  { $id: 'CrawlRequestBody', additionalProperties: false },
);

export const CrawlRequestAccepted = Type.Object(
  { message: Type.String(), domain: Type.String({ description: 'The domain as it will be crawled.' }) },
  { $id: 'CrawlRequestAccepted', description: 'The crawl is queued and runs asynchronously.' },
);

import { creativeAssetSummary } from '../../creative-library/index.ts';
import { mediaBuyStatuses } from './state.ts';

/** core/creative-assignment.json: a creative of the account's library (from sync_creatives) to run in a package. */
export const creativeAssignmentSummary = {
  type: 'object',
  properties: {
    creative_id: { type: 'string' },
    weight: { type: 'number', minimum: 0, maximum: 100 },
    placement_ids: { type: 'array', items: { type: 'string' } },
  },
  required: ['creative_id'],
} as const;

/** Creatives uploaded with a package: checked as sync_creatives checks them, stored in the account's library and assigned to the package. */
export const inlineCreatives = {
  type: 'array',
  minItems: 1,
  maxItems: 100,
  description:
    'Creatives to upload into the account’s library (checked as sync_creatives checks them) and assign to this package.',
  items: creativeAssetSummary,
} as const;

/** media-buy/package-request.json, summarized for MCP's tools/list (the published schema is checked in full). */
export const packageRequestSummary = {
  type: 'object',
  properties: {
    product_id: { type: 'string' },
    pricing_option_id: { type: 'string', description: 'One of the product’s pricing_options.' },
    budget: {
      type: 'number',
      minimum: 0,
      description: 'In the pricing option’s currency; above zero and at least its min_spend_per_package.',
    },
    bid_price: { type: 'number', minimum: 0, description: 'Auction pricing only: at least the option’s floor_price.' },
    start_time: { type: 'string', description: 'Within the buy’s flight; the buy’s when absent.' },
    end_time: { type: 'string' },
    paused: { type: 'boolean' },
    format_ids: { type: 'array', items: { type: 'object' } },
    creative_assignments: {
      type: 'array',
      minItems: 1,
      description: 'Creatives of the account’s library (from sync_creatives) to run in this package.',
      items: creativeAssignmentSummary,
    },
    creatives: inlineCreatives,
    targeting_overlay: {
      type: 'object',
      description: 'core/targeting.json, stored and echoed (property_list and collection_list references included).',
    },
    measurement_terms: {
      type: 'object',
      description: 'core/measurement-terms.json; terms this seller cannot accept are TERMS_REJECTED.',
    },
  },
  required: ['product_id', 'pricing_option_id', 'budget'],
} as const;

/** core/reporting-webhook.json as this seller takes it (checked in full by readReportingWebhook). */
export const reportingWebhookSummary = {
  type: 'object',
  description:
    'Delivery reports pushed to url, one per period of reporting_frequency and a final one, signed with RFC 9421 (leave authentication out, or send {"schemes": ["HTTP_MESSAGE_SIGNATURES"]}).',
  properties: {
    url: { type: 'string', description: 'An absolute http(s) URL.' },
    token: { type: 'string', minLength: 16, description: 'Echoed in every report.' },
    reporting_frequency: {
      type: 'string',
      enum: ['hourly', 'daily', 'monthly'],
      description: 'UTC periods; every product of the buy must offer it.',
    },
    requested_metrics: {
      type: 'array',
      items: { type: 'string' },
      description: 'Only these metrics (impressions and spend always); each must be available from every product.',
    },
    authentication: {
      type: 'object',
      description:
        'None, or {"schemes": ["HTTP_MESSAGE_SIGNATURES"]}; the legacy Bearer and HMAC-SHA256 schemes are refused (UNSUPPORTED_FEATURE).',
    },
  },
  required: ['url', 'reporting_frequency'],
} as const;

/** Which of the caller's buys a read names: by account, by ids, or by status (get_media_buys, get_media_buy_delivery). */
export const buySelection = {
  account: {
    type: 'object',
    description: 'core/account-ref.json: only this account’s buys; all of yours when absent.',
  },
  media_buy_ids: { type: 'array', minItems: 1, items: { type: 'string' } },
  status_filter: {
    oneOf: [
      { type: 'string', enum: [...mediaBuyStatuses] },
      { type: 'array', minItems: 1, items: { type: 'string', enum: [...mediaBuyStatuses] } },
    ],
  },
} as const;

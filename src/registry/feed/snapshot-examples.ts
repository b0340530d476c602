import { encodeCursor } from '../../protocol/cursor.ts';

/** Example pages for the OpenAPI document, as a small registry answers them. */

const cursor = '01a20e5c-6c0b-7005-ac34-08f86705d828';

const communityEntry = {
  entity_type: 'property',
  entity_id: '4db5418e-9ec1-4549-bbaa-bc39138cd280',
  data: {
    id: '4db5418e-9ec1-4549-bbaa-bc39138cd280',
    publisher_domain: 'citybeat.example',
    source: 'community',
    status: 'active',
    authorized_agents: [{ url: 'https://sales.citybeat.example/mcp' }],
    properties: [{ name: 'City Beat', type: 'website' }],
    revision_number: 1,
    updated_at: '2026-03-02T09:14:07.668Z',
  },
};

const publisher = {
  entity_type: 'publisher',
  entity_id: 'dailyplanet.example',
  data: {
    publisher_domain: 'dailyplanet.example',
    status: 'active',
    document_url: 'https://dailyplanet.example/.well-known/adagents.json',
    manager_domain: null,
    discovered_at: '2026-03-02T09:14:07.696Z',
    crawled_at: '2026-03-02T09:14:07.696Z',
  },
};

const identifiers = [{ type: 'ios_bundle', value: 'com.dailyplanet.app' }];
const catalogProperty = {
  entity_type: 'property',
  entity_id: '305bb37f-1da9-4136-a6bb-863082fe6c89',
  data: {
    property_rid: '305bb37f-1da9-4136-a6bb-863082fe6c89',
    classification: 'property',
    source: 'authoritative',
    identifiers,
    publisher_domain: 'dailyplanet.example',
    status: 'active',
    property: {
      property_id: 'ios_app',
      property_type: 'mobile_app',
      name: 'Daily Planet for iOS',
      identifiers,
      tags: ['news', 'app'],
      publisher_domain: 'dailyplanet.example',
    },
    operator_declarations: [],
  },
};

const distribution = [
  { publisher_domain: 'youtube.com', identifiers: [{ type: 'youtube_channel_id', value: 'UCdailyplanet' }] },
];
const collection = {
  entity_type: 'collection',
  entity_id: 'e2801df1-210e-48b9-969d-cd799d6fa194',
  data: {
    collection_rid: 'e2801df1-210e-48b9-969d-cd799d6fa194',
    publisher_domain: 'dailyplanet.example',
    collection_id: 'evening_news',
    name: 'The Evening News',
    kind: 'series',
    source: 'authoritative',
    status: 'active',
    identifiers: [{ type: 'youtube_channel_id', value: 'UCdailyplanet', publisher_domain: 'youtube.com' }],
    collection: { collection_id: 'evening_news', name: 'The Evening News', kind: 'series', distribution },
  },
};

export const catalogExample = {
  cursor,
  items: [communityEntry, publisher, catalogProperty],
  next_page_token: encodeCursor({ of: 'catalog', cursor, section: '2', after: catalogProperty.entity_id }),
  has_more: true,
};

export const collectionsExample = { cursor, items: [collection], next_page_token: null, has_more: false };

export const snapshotExample = {
  cursor,
  items: [communityEntry, publisher],
  next_page_token: encodeCursor({ cursor, section: '2' }),
  has_more: true,
};

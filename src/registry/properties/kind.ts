import type { Static } from 'typebox';
import { entriesByDomain, type EntityKind } from '../entries/index.ts';
import { recordChange } from './events.ts';
import { snapshot, toListed, toResolution } from './rows.ts';
import * as schemas from './schemas.ts';
import { editableValues, propertyTables, type EditableFields, type InventoryItem, type PropertyRow } from './sql.ts';

/** A saved property as the entry keeps it: its type under one name. */
function inventoryItem({ type, property_type, ...identity }: schemas.SavedProperty): InventoryItem {
  // The schema requires one of the two.
  return { type: (property_type ?? type)!, ...identity };
}

/** Property entries as the shared entry machinery (resolve, listing, saves, history, rollback) sees them. */
export const propertyKind: EntityKind<PropertyRow, EditableFields, Static<typeof schemas.SaveBody>> = {
  kind: 'property',
  noun: 'property entry',
  title: (domain) => `Property entry for ${domain}`,
  authoritativeFile: 'adagents.json',
  tables: propertyTables,
  domainOf: (row) => row.publisher_domain,
  find: (db, domains) => entriesByDomain<PropertyRow>(db, propertyTables, [...new Set(domains)]),
  snapshot,
  editableValues,
  restoredValues: (old) =>
    editableValues({
      authorized_agents: (old.authorized_agents ?? []) as EditableFields['authorized_agents'],
      inventory: (old.inventory ?? []) as EditableFields['inventory'],
      contact: (old.contact ?? null) as EditableFields['contact'],
    }),
  recordChange,
  wire: {
    path: '/api/properties',
    tag: 'Property Resolution',
    domainField: 'publisher_domain',
    fieldsOf: ({ authorized_agents, properties = [], contact }) => ({
      authorized_agents,
      inventory: properties.map(inventoryItem),
      contact: contact ?? null,
    }),
    resolution: toResolution,
    listed: toListed,
    listKey: 'properties',
    resultExtras: () => ({}),
    schemas,
    docs: {
      resolve: {
        summary: 'Resolve a publisher domain',
        description:
          'The property entry of a publisher domain: the agents it authorizes and the inventory it declares.',
      },
      bulk: { summary: 'Resolve up to 100 publisher domains' },
      registry: {
        summary: 'List and search property entries',
        description: 'Ordered by publisher domain; pages are stable under concurrent writes (keyset cursor).',
      },
      save: {
        summary: 'Save a community property entry',
        description:
          'Creates the entry or adds a revision to it. Entries managed by the publisher’s own adagents.json answer 409.',
      },
    },
  },
};

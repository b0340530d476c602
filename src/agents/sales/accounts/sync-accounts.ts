import canonicalize from 'canonicalize';
import { AgentError } from '../../../protocol/errors.ts';
import { publishedSchemas, type AgentTask } from '../../runtime/index.ts';
import {
  actorOf,
  defaultPaymentTerms,
  keyOfRow,
  keyText,
  newAccount,
  ownerOf,
  toAccount,
  type AccountRow,
  type BrandRef,
  type NaturalKey,
  type Terms,
} from './account.ts';
import * as sql from './sql.ts';

interface RequestedAccount {
  brand: BrandRef;
  operator: string;
  billing: string;
  billing_entity?: Record<string, unknown>;
  payment_terms?: string;
  sandbox?: boolean;
}

type Action = 'created' | 'updated' | 'unchanged';

const brandRefSummary = {
  type: 'object',
  description: 'core/brand-ref.json: the house domain, and brand_id for one brand of a house of brands.',
  properties: { domain: { type: 'string' }, brand_id: { type: 'string' } },
  required: ['domain'],
};

/**
 * `sync_accounts` (account/sync-accounts-request.json): upserts the caller's accounts by natural
 * key (brand domain, brand_id, operator, sandbox), answering per account whether it was created,
 * updated or unchanged. This seller accepts every billing party and payment terms, and opens new
 * accounts active; a status the seller set (suspended, payment_required...) is kept by a resync.
 * `delete_missing` closes the caller's other accounts (closed is terminal: syncing that key again
 * opens a new account); `dry_run` answers the same without writing (new accounts get no id).
 */
export function syncAccountsTask(): AgentTask {
  return {
    name: 'sync_accounts',
    description:
      'Declare the advertiser accounts you operate here (upsert by brand + operator + sandbox). Answers each account with its action (created, updated, unchanged), status and seller-assigned account_id. delete_missing closes your accounts not listed; dry_run previews without changing anything.',
    input: {
      type: 'object',
      properties: {
        accounts: {
          type: 'array',
          maxItems: 1000,
          items: {
            type: 'object',
            properties: {
              brand: brandRefSummary,
              operator: {
                type: 'string',
                description:
                  'Domain of who operates on the brand’s behalf; the brand’s own domain when it buys direct.',
              },
              billing: { type: 'string', enum: ['operator', 'agent', 'advertiser'], description: 'Who is invoiced.' },
              billing_entity: {
                type: 'object',
                description: 'core/business-entity.json: the invoiced party (bank details are stored, never answered).',
              },
              payment_terms: {
                type: 'string',
                enum: ['net_15', 'net_30', 'net_45', 'net_60', 'net_90', 'prepay'],
                description: 'Defaults to net_30.',
              },
              sandbox: { type: 'boolean', description: 'A sandbox account: no real spend. Part of the natural key.' },
            },
            required: ['brand', 'operator', 'billing'],
          },
        },
        delete_missing: { type: 'boolean', description: 'Close your accounts this request does not list.' },
        dry_run: { type: 'boolean', description: 'Answer what would change, changing nothing.' },
      },
      required: ['accounts'],
      additionalProperties: true,
    },
    ...publishedSchemas('account/sync-accounts'),
    mutates: true,
    async handler(args, ctx) {
      const requested = args['accounts'] as RequestedAccount[];
      const dryRun = args['dry_run'] === true;
      const owner = ownerOf(ctx.principal);
      const change = { by: actorOf(ctx.principal), at: ctx.clock.now() };
      const keys = requested.map(keyOf);
      refuseDuplicates(keys);

      await sql.lockOwner(ctx.db, owner);
      const open = new Map((await sql.openAccounts(ctx.db, owner)).map((row) => [keyText(keyOfRow(row)), row]));
      const results: Array<Record<string, unknown>> = [];
      const answer = (row: AccountRow, action: Action) => {
        const { account_id, ...shown } = toAccount(row);
        // A dry run's new account has no id yet: it is assigned when the account is made.
        results.push({ ...(dryRun && action === 'created' ? {} : { account_id }), ...shown, action });
      };

      for (const [i, wanted] of requested.entries()) {
        const key = keys[i]!;
        const terms = termsOf(wanted);
        const existing = open.get(keyText(key));
        open.delete(keyText(key));
        if (!existing) {
          const row = newAccount(owner, key, terms, change.at);
          if (!dryRun) await sql.insertAccount(ctx.db, row, change);
          answer(row, 'created');
        } else if (sameTerms(existing, terms)) {
          answer(existing, 'unchanged');
        } else {
          if (!dryRun) await sql.updateTerms(ctx.db, existing.account_id, terms, change);
          answer({ ...existing, ...terms }, 'updated');
        }
      }
      if (args['delete_missing'] === true) {
        // A rejected account was the seller's answer, not the buyer's to close.
        for (const row of [...open.values()].filter((r) => r.status !== 'rejected')) {
          if (!dryRun) await sql.setStatus(ctx.db, row.account_id, 'closed', change);
          answer({ ...row, status: 'closed' }, 'updated');
        }
      }
      return { dry_run: dryRun, accounts: results };
    },
  };
}

function keyOf(wanted: RequestedAccount): NaturalKey {
  return {
    brandDomain: wanted.brand.domain,
    brandId: wanted.brand.brand_id ?? null,
    operator: wanted.operator,
    sandbox: wanted.sandbox === true,
  };
}

function termsOf(wanted: RequestedAccount): Terms {
  return {
    brand: wanted.brand,
    billing: wanted.billing,
    billing_entity: wanted.billing_entity ?? null,
    payment_terms: wanted.payment_terms ?? defaultPaymentTerms,
  };
}

const termsText = (t: Terms) =>
  canonicalize({
    brand: t.brand,
    billing: t.billing,
    billing_entity: t.billing_entity,
    payment_terms: t.payment_terms,
  });
const sameTerms = (row: AccountRow, terms: Terms) => termsText(row) === termsText(terms);

/** Two entries for one account would leave its outcome to their order: the request is refused whole. */
function refuseDuplicates(keys: NaturalKey[]): void {
  const seen = new Map<string, number>();
  for (const [i, key] of keys.entries()) {
    const first = seen.get(keyText(key));
    if (first !== undefined) {
      throw new AgentError(
        'INVALID_REQUEST',
        `accounts[${i}] names the same account (brand, operator, sandbox) as accounts[${first}]; list each account once.`,
        {
          field: `accounts[${i}]`,
        },
      );
    }
    seen.set(keyText(key), i);
  }
}

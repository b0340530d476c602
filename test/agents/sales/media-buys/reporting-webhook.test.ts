import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Product } from '../../../../src/agents/sales/catalog/index.ts';
import {
  checkReportingCapabilities,
  readReportingWebhook,
} from '../../../../src/agents/sales/media-buys/reporting-webhook.ts';
import { AgentError } from '../../../../src/protocol/errors.ts';

/** A product reporting as told (the other product fields do not matter here). */
const product = (productId: string, reporting: Record<string, unknown>): Product =>
  ({
    product_id: productId,
    reporting_capabilities: {
      available_reporting_frequencies: ['hourly', 'daily'],
      supports_webhooks: true,
      available_metrics: ['impressions', 'spend', 'clicks'],
      ...reporting,
    },
  }) as unknown as Product;

const refused = (fn: () => void, code: string, field: string) =>
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof AgentError, String(err));
    assert.deepEqual([err.code, err.field], [code, field]);
    return true;
  });

describe('reporting webhook configuration', () => {
  const url = 'https://buyer.example/reports';

  it('takes the signed forms and keeps what a report needs', () => {
    assert.equal(readReportingWebhook(undefined), undefined);
    assert.deepEqual(readReportingWebhook({ url, reporting_frequency: 'daily' }), {
      url,
      reporting_frequency: 'daily',
    });
    assert.deepEqual(
      readReportingWebhook({
        url,
        reporting_frequency: 'hourly',
        token: 'a-token-of-16-chars',
        requested_metrics: ['clicks'],
        authentication: { schemes: ['HTTP_MESSAGE_SIGNATURES'] },
      }),
      { url, reporting_frequency: 'hourly', token: 'a-token-of-16-chars', requested_metrics: ['clicks'] },
    );
  });

  it('refuses the legacy schemes and shared secrets', () => {
    refused(
      () =>
        readReportingWebhook({
          url,
          reporting_frequency: 'daily',
          authentication: { schemes: ['Bearer'], credentials: 'x'.repeat(32) },
        }),
      'UNSUPPORTED_FEATURE',
      'reporting_webhook.authentication.schemes',
    );
    refused(
      () => readReportingWebhook({ url, reporting_frequency: 'daily', authentication: { schemes: ['HMAC-SHA256'] } }),
      'UNSUPPORTED_FEATURE',
      'reporting_webhook.authentication.schemes',
    );
    refused(
      () => readReportingWebhook({ url, reporting_frequency: 'daily', authentication: { schemes: [] } }),
      'INVALID_REQUEST',
      'reporting_webhook.authentication.schemes',
    );
    refused(
      () =>
        readReportingWebhook({
          url,
          reporting_frequency: 'daily',
          authentication: { schemes: ['HTTP_MESSAGE_SIGNATURES'], credentials: 'x'.repeat(32) },
        }),
      'INVALID_REQUEST',
      'reporting_webhook.authentication.credentials',
    );
  });

  it('refuses what is not a webhook it can send to', () => {
    refused(() => readReportingWebhook('https://buyer.example'), 'INVALID_REQUEST', 'reporting_webhook');
    refused(
      () => readReportingWebhook({ url: '/reports', reporting_frequency: 'daily' }),
      'INVALID_REQUEST',
      'reporting_webhook.url',
    );
    refused(
      () => readReportingWebhook({ url: 'ftp://buyer.example/reports', reporting_frequency: 'daily' }),
      'VALIDATION_ERROR',
      'reporting_webhook.url',
    );
    refused(
      () => readReportingWebhook({ url: 'https://me:secret@buyer.example/reports', reporting_frequency: 'daily' }),
      'VALIDATION_ERROR',
      'reporting_webhook.url',
    );
    refused(
      () => readReportingWebhook({ url, reporting_frequency: 'daily', token: 'short' }),
      'INVALID_REQUEST',
      'reporting_webhook.token',
    );
    refused(() => readReportingWebhook({ url }), 'INVALID_REQUEST', 'reporting_webhook.reporting_frequency');
    refused(
      () => readReportingWebhook({ url, reporting_frequency: 'weekly' }),
      'INVALID_REQUEST',
      'reporting_webhook.reporting_frequency',
    );
    refused(
      () => readReportingWebhook({ url, reporting_frequency: 'daily', requested_metrics: ['clicks', 'bogus'] }),
      'INVALID_REQUEST',
      'reporting_webhook.requested_metrics[1]',
    );
    refused(
      () => readReportingWebhook({ url, reporting_frequency: 'daily', requested_metrics: ['clicks', 'clicks'] }),
      'INVALID_REQUEST',
      'reporting_webhook.requested_metrics[1]',
    );
  });

  it('needs every product of the buy to send webhooks at that frequency with those metrics', () => {
    const display = product('display', {});
    const quiet = product('quiet', { supports_webhooks: false });
    const monthly = product('monthly', { available_reporting_frequencies: ['daily', 'monthly'] });
    const products = [display, quiet, monthly];
    const daily = { url, reporting_frequency: 'daily' as const };
    checkReportingCapabilities(daily, ['display', 'monthly', 'display'], products);
    refused(
      () => checkReportingCapabilities(daily, ['display', 'quiet'], products),
      'UNSUPPORTED_FEATURE',
      'reporting_webhook',
    );
    refused(
      () => checkReportingCapabilities({ ...daily, reporting_frequency: 'monthly' }, ['display', 'monthly'], products),
      'UNSUPPORTED_FEATURE',
      'reporting_webhook.reporting_frequency',
    );
    refused(
      () => checkReportingCapabilities({ ...daily, reporting_frequency: 'hourly' }, ['monthly'], products),
      'UNSUPPORTED_FEATURE',
      'reporting_webhook.reporting_frequency',
    );
    checkReportingCapabilities(
      { ...daily, requested_metrics: ['impressions', 'spend', 'clicks'] },
      ['display'],
      products,
    );
    refused(
      () =>
        checkReportingCapabilities({ ...daily, requested_metrics: ['spend', 'conversions'] }, ['display'], products),
      'UNSUPPORTED_FEATURE',
      'reporting_webhook.requested_metrics[1]',
    );
    checkReportingCapabilities({ ...daily, reporting_frequency: 'monthly' }, ['monthly', 'gone'], products);
  });
});

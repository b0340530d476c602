import { AgentError } from '../../../protocol/errors.ts';
import { checkPublishedRequest, type TaskArguments } from '../../runtime/index.ts';
import type { Product } from '../catalog/index.ts';

/** enums/reporting-frequency.json. */
export type ReportingFrequency = 'hourly' | 'daily' | 'monthly';

/** core/reporting-webhook.json as this seller keeps it: signed with RFC 9421, so without credentials. */
export interface ReportingWebhook {
  url: string;
  token?: string;
  reporting_frequency: ReportingFrequency;
  /** None: every metric the buy reports. */
  requested_metrics?: string[];
}

const at = 'reporting_webhook';
const signatures = 'HTTP_MESSAGE_SIGNATURES';
/** Always in a report, whatever a product lists (reporting-capabilities.json's available_metrics). */
const implicitMetrics = new Set(['impressions', 'spend']);

/**
 * A buy request as its published schema reads it (a task's `publishedForm`), once its
 * `reporting_webhook` has been read: before the schema, so a legacy block is refused as such.
 */
export function webhookReadFirst<Args extends TaskArguments>(args: Args): Args {
  readReportingWebhook(args['reporting_webhook']);
  return args;
}

/**
 * A request's `reporting_webhook`, checked as far as it goes without the buy's products. The
 * published schema cannot check it (it requires the legacy `authentication` block), so its shape is
 * checked here, with the published enums. Reports are always signed with RFC 9421: no
 * `authentication`, or the spec's opt-in `{schemes: ["HTTP_MESSAGE_SIGNATURES"]}`; the legacy
 * Bearer and HMAC-SHA256 schemes are refused. Run before the published request check, so a legacy
 * block is refused as such rather than for its credentials.
 */
export function readReportingWebhook(value: unknown): ReportingWebhook | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) throw invalid(at, 'must be an object');
  checkAuthentication(value['authentication']);
  const { url, token, reporting_frequency: frequency, requested_metrics: metrics } = value;
  if (typeof url !== 'string' || !URL.canParse(url)) throw invalid(`${at}.url`, 'must be an absolute URL');
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new AgentError(
      'VALIDATION_ERROR',
      `Reports are sent by HTTP POST: ${at}.url must be an http or https URL, not ${parsed.protocol}.`,
      { field: `${at}.url` },
    );
  }
  if (parsed.username || parsed.password) {
    throw new AgentError(
      'VALIDATION_ERROR',
      `${at}.url must not carry credentials; reports are signed with RFC 9421 instead.`,
      { field: `${at}.url` },
    );
  }
  if (token !== undefined && (typeof token !== 'string' || token.length < 16))
    throw invalid(`${at}.token`, 'must be a string of at least 16 characters');
  if (frequency === undefined) throw invalid(`${at}.reporting_frequency`, 'is required');
  checkPublishedRequest('/schemas/3.0.6/enums/reporting-frequency.json', frequency, `${at}.reporting_frequency`);
  if (metrics !== undefined) {
    if (!Array.isArray(metrics)) throw invalid(`${at}.requested_metrics`, 'must be an array');
    metrics.forEach((metric, i) =>
      checkPublishedRequest('/schemas/3.0.6/enums/available-metric.json', metric, `${at}.requested_metrics[${i}]`),
    );
    const repeated = metrics.findIndex((m, i) => metrics.indexOf(m) !== i);
    if (repeated >= 0) throw invalid(`${at}.requested_metrics[${repeated}]`, 'names a metric already listed');
  }
  return {
    url,
    ...(token === undefined ? {} : { token: token as string }),
    reporting_frequency: frequency as ReportingFrequency,
    ...(metrics === undefined ? {} : { requested_metrics: metrics as string[] }),
  };
}

function checkAuthentication(auth: unknown): void {
  if (auth === undefined) return;
  if (!isObject(auth)) throw invalid(`${at}.authentication`, 'must be an object');
  const schemes = auth['schemes'];
  if (!Array.isArray(schemes) || schemes.length === 0)
    throw invalid(`${at}.authentication.schemes`, 'must be a non-empty array');
  const legacy = schemes.filter((s) => s !== signatures);
  if (legacy.length > 0) {
    throw new AgentError(
      'UNSUPPORTED_FEATURE',
      `This seller signs reports with RFC 9421 HTTP Message Signatures only, not ${legacy.map(String).join(', ')}.`,
      {
        field: `${at}.authentication.schemes`,
        suggestion: `Leave authentication out, or send {"schemes": ["${signatures}"]}, and verify reports against the seller's published keys.`,
      },
    );
  }
  if (auth['credentials'] !== undefined)
    throw invalid(`${at}.authentication.credentials`, 'must be left out: RFC 9421 signatures need no shared secret');
}

/**
 * What the buy's products allow (core/reporting-capabilities.json): every product must support
 * webhooks, the frequency, and each requested metric besides impressions and spend. A product gone
 * from the catalog since it was bought is not checked: nothing tells what it allows.
 */
export function checkReportingCapabilities(
  webhook: ReportingWebhook,
  productIds: readonly string[],
  products: readonly Product[],
): void {
  const known = [...new Set(productIds)].flatMap((id) => products.filter((p) => p.product_id === id));
  const refusing = (allows: (caps: Capabilities) => boolean) =>
    known.filter((p) => !allows(capabilitiesOf(p))).map((p) => p.product_id);

  const silent = refusing((c) => c.supports_webhooks === true);
  if (silent.length > 0) {
    throw new AgentError(
      'UNSUPPORTED_FEATURE',
      `${silent.join(', ')} ${silent.length === 1 ? 'sends' : 'send'} no reporting webhooks; poll get_media_buy_delivery instead.`,
      {
        field: at,
        details: { product_ids: silent },
      },
    );
  }
  const frequency = webhook.reporting_frequency;
  const slower = refusing((c) => c.available_reporting_frequencies.includes(frequency));
  if (slower.length > 0) {
    const common = (['hourly', 'daily', 'monthly'] as const).filter((f) =>
      known.every((p) => capabilitiesOf(p).available_reporting_frequencies.includes(f)),
    );
    throw new AgentError(
      'UNSUPPORTED_FEATURE',
      `${slower.join(', ')} ${slower.length === 1 ? 'does' : 'do'} not report ${frequency}.`,
      {
        field: `${at}.reporting_frequency`,
        details: { product_ids: slower, available_reporting_frequencies: common },
        ...(common.length > 0 ? { suggestion: `Choose ${common.join(' or ')}.` } : {}),
      },
    );
  }
  for (const [i, metric] of (webhook.requested_metrics ?? []).entries()) {
    if (implicitMetrics.has(metric)) continue;
    const lacking = refusing((c) => c.available_metrics.includes(metric));
    if (lacking.length > 0) {
      throw new AgentError(
        'UNSUPPORTED_FEATURE',
        `${lacking.join(', ')} ${lacking.length === 1 ? 'does' : 'do'} not report ${metric}.`,
        {
          field: `${at}.requested_metrics[${i}]`,
          details: { product_ids: lacking },
        },
      );
    }
  }
}

interface Capabilities {
  supports_webhooks: unknown;
  available_reporting_frequencies: readonly unknown[];
  available_metrics: readonly unknown[];
}

/** The catalog is checked against core/product.json at load, so these fields are there. */
const capabilitiesOf = (product: Product) => product.reporting_capabilities as unknown as Capabilities;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const invalid = (field: string, problem: string) =>
  new AgentError('INVALID_REQUEST', `Invalid argument ${field}: ${problem}.`, { field });

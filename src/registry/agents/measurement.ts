import { ApError } from '../../protocol/errors.ts';
import type { Metric } from './probing/index.ts';

/** The measurement filters of the agent list (spec section 4): any of them makes it a list of measurement agents. */
export interface MeasurementFilter {
  metricIds: string[];
  accreditations: string[];
  q: string | undefined;
}

const list = (value: string | string[] | undefined) =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/** The filters asked for, or undefined for none; 400 when combined with another explicit type, or when `q` holds a wildcard. */
export function measurementFilter(query: {
  type?: string;
  metric_id?: string | string[];
  accreditation?: string | string[];
  q?: string;
}): MeasurementFilter | undefined {
  const filter = { metricIds: list(query.metric_id), accreditations: list(query.accreditation), q: query.q };
  if (filter.metricIds.length === 0 && filter.accreditations.length === 0 && filter.q === undefined) return undefined;
  if (query.type !== undefined && query.type !== 'measurement') {
    throw new ApError(
      'invalid_request',
      `metric_id, accreditation and q filter measurement agents; they cannot be combined with type=${query.type}.`,
      {
        details: [
          { in: 'querystring', field: 'type', message: 'must be measurement (or absent) with measurement filters' },
        ],
      },
    );
  }
  if (filter.q !== undefined && /[%_]/.test(filter.q)) {
    throw new ApError('invalid_request', 'q is a plain substring of metric_id: % and _ are refused.', {
      details: [{ in: 'querystring', field: 'q', message: 'must not contain % or _' }],
    });
  }
  return filter;
}

/** Whether an agent's metrics pass every filter given: metric ids OR'd, accrediting bodies OR'd, q a case-insensitive substring of a metric_id. */
export function matchesMeasurement(metrics: readonly Metric[], filter: MeasurementFilter): boolean {
  if (filter.metricIds.length > 0 && !metrics.some((m) => filter.metricIds.includes(m.metric_id))) return false;
  if (
    filter.accreditations.length > 0 &&
    !metrics.some((m) => m.accreditations.some((a) => filter.accreditations.includes(a.accrediting_body)))
  )
    return false;
  if (filter.q !== undefined) {
    const q = filter.q.toLowerCase();
    if (!metrics.some((m) => m.metric_id.toLowerCase().includes(q))) return false;
  }
  return true;
}

import { randomUUID } from 'node:crypto';
import { AgentError } from '../../../protocol/errors.ts';
import { inputSetSummary } from '../../creative-library/index.ts';
import { manifestProblems, type FormatId } from '../../formats/index.ts';
import {
  checkPublishedRequest,
  errorObject,
  type AgentTask,
  type JsonSchema,
  type TaskContext,
} from '../../runtime/index.ts';
import type { CreativeManifest } from '../../formats/index.ts';
import { ownFormats, type AgentFormats } from '../own-formats.ts';
import { insertPreviews, PreviewSet } from '../previews/sql.ts';
import { hasSnapshot, type Renderer } from '../previews/renderer.ts';

const REQUEST = '/schemas/3.0.6/creative/preview-creative-request.json';

export interface PreviewSettings extends AgentFormats {
  /** Where its hosted previews are served: `<base><path>/previews/<key>`. */
  previewsUrl: () => string;
  renderer: Renderer;
  /** How long a hosted preview lives. */
  ttlSeconds: number;
}

interface Input {
  name: string;
  macros?: Record<string, string>;
  context_description?: string;
}

/** One creative to preview: the single request itself, or an item of a batch. */
export interface PreviewItem {
  format_id?: FormatId;
  creative_manifest?: CreativeManifest;
  inputs?: Input[];
  output_format?: 'url' | 'html';
  quality?: 'draft' | 'production';
  creative_id?: string;
}

const itemProperties: Record<string, JsonSchema> = {
  format_id: {
    type: 'object',
    description: 'core/format-id.json {agent_url, id}; defaults to creative_manifest.format_id.',
  },
  creative_manifest: { type: 'object', description: 'core/creative-manifest.json: format_id and assets by asset id.' },
  inputs: {
    type: 'array',
    // Each input is a rendered, stored preview: a bound keeps one call from asking for thousands.
    maxItems: 20,
    description: 'Variants (up to 20): each {name, macros: {MACRO: value}} is rendered with its macros substituted.',
    items: inputSetSummary,
  },
  output_format: {
    type: 'string',
    enum: ['url', 'html'],
    description: 'url (default): a hosted page until expires_at; html: the markup inline.',
  },
  quality: {
    type: 'string',
    enum: ['draft', 'production'],
    description: 'production also renders the PNG snapshot of a display format during the call.',
  },
};

/**
 * `preview_creative` (spec section 4; creative/preview-creative-request.json): each manifest is
 * checked against its format's asset requirements, then rendered once per input set (macros
 * substituted) as a standalone page at the format's size, answered inline (`html`) or hosted here
 * (`url`) until `expires_at`; display formats also get a PNG snapshot (`snapshot_url`), rendered
 * during the call at `quality: production`, else at its first fetch. A batch renders every
 * request in order and stores every preview of the call as one row; one failing request fails
 * only its own result.
 */
export function previewCreativeTask(settings: PreviewSettings): AgentTask {
  return {
    name: 'preview_creative',
    description:
      'Preview creatives: request_type "single" (format_id, creative_manifest, inputs[] of {name, macros}) or "batch" (requests[] of the same, up to 50). output_format "url" (default) hosts each preview here until expires_at; "html" answers the markup. Display formats also answer snapshot_url, a PNG of the creative.',
    input: {
      type: 'object',
      properties: {
        request_type: { type: 'string', enum: ['single', 'batch', 'variant'] },
        ...itemProperties,
        requests: {
          type: 'array',
          minItems: 1,
          maxItems: 50,
          items: { type: 'object', properties: itemProperties },
          description: 'batch: the creatives to preview, answered in order.',
        },
      },
      required: ['request_type'],
      additionalProperties: true,
    },
    output: { $ref: '/schemas/3.0.6/creative/preview-creative-response.json' },
    mutates: false,
    async handler(args, ctx) {
      const type = args['request_type'];
      const now = ctx.clock.now();
      const expiresAt = new Date(now.getTime() + settings.ttlSeconds * 1000);
      const stored = new PreviewSet();
      if (type === 'variant')
        throw new AgentError(
          'UNSUPPORTED_FEATURE',
          'This agent keeps no delivered variants to replay; preview a manifest with request_type single or batch.',
          { field: 'request_type' },
        );
      if (type === 'single') {
        checkPublishedRequest(REQUEST, args);
        const previews = await previewsOf(args as PreviewItem, '', settings, stored);
        await insertPreviews(ctx.db, principalOf(ctx), stored, now, expiresAt);
        return { response_type: 'single', previews, expires_at: expiresAt.toISOString() };
      }
      const { requests, ...rest } = args as { requests?: unknown[] } & Record<string, unknown>;
      if (!Array.isArray(requests) || requests.length === 0)
        throw new AgentError('INVALID_REQUEST', 'A batch names its requests[] (1 to 50).', { field: 'requests' });
      // One check of the whole batch; only when it fails is each request checked on its own, so a
      // bad request fails its result alone (the batch's own fields are checked with stand-ins for them).
      const valid = publishedValid(args);
      if (!valid)
        checkPublishedRequest(REQUEST, {
          ...rest,
          requests: requests.map(() => ({
            creative_manifest: {
              format_id: { agent_url: 'https://placeholder.invalid', id: 'placeholder' },
              assets: {},
            },
          })),
        });
      const defaults = { output_format: rest['output_format'], quality: rest['quality'] } as Partial<PreviewItem>;
      const results = [];
      for (const [index, raw] of requests.entries()) {
        const at = `requests[${index}]`;
        const item = { ...defaults, ...(raw as PreviewItem) };
        const creativeId = typeof item.creative_id === 'string' ? item.creative_id : at;
        const mark = stored.previews.length;
        try {
          if (!valid) checkPublishedRequest(REQUEST, { request_type: 'single', ...item });
          const previews = await previewsOf(item, `${at}.`, settings, stored);
          results.push({
            success: true,
            creative_id: creativeId,
            response: { previews, expires_at: expiresAt.toISOString() },
          });
        } catch (err) {
          if (!(err instanceof AgentError)) throw err;
          stored.truncate(mark);
          results.push({ success: false, creative_id: creativeId, errors: [errorObject(prefixed(err, at))] });
        }
      }
      await insertPreviews(ctx.db, principalOf(ctx), stored, now, expiresAt);
      return { response_type: 'batch', results };
    },
  };
}

/** The previews of one creative, one per input set; hosted ones are added to `stored` (for the caller to insert). */
export async function previewsOf(
  item: PreviewItem,
  at: string,
  settings: PreviewSettings,
  stored: PreviewSet,
): Promise<Record<string, unknown>[]> {
  const manifest = item.creative_manifest;
  if (!manifest)
    throw new AgentError('INVALID_REQUEST', 'creative_manifest is required.', { field: `${at}creative_manifest` });
  const formatId = item.format_id ?? manifest.format_id;
  const formats = ownFormats(settings.formats(), settings.agentUrl());
  const format = formats.find(formatId);
  if (!format) throw formats.unknown(formatId, `${at}${item.format_id ? 'format_id' : 'creative_manifest.format_id'}`);
  const problems = manifestProblems(format, manifest);
  if (problems.length > 0) {
    throw new AgentError(
      'VALIDATION_ERROR',
      `The manifest does not meet ${format.name}'s asset requirements: ${problems.map((p) => p.message).join(' ')}`,
      {
        field: `${at}${problems[0]!.field}`,
        details: { assets: problems.map((p) => ({ ...p, field: `${at}${p.field}` })) },
        suggestion: 'list_creative_formats shows each asset the format requires and its requirements.',
      },
    );
  }
  // A tag given by URL is fetched once for all the variants (read-only: no transaction waits).
  const shown = await settings.renderer.inlineAdTags(format, manifest);
  const output = item.output_format ?? 'url';
  const inputs = item.inputs ?? [{ name: 'Default' }];
  const previews = [];
  const snapshot = hasSnapshot(format);
  const previewsUrl = settings.previewsUrl();
  for (const input of inputs) {
    const macros = input.macros ?? {};
    let key: string;
    let render: Record<string, unknown>;
    if (output === 'html') {
      const page = settings.renderer.renderHtml(format, shown, { macros });
      key = randomUUID();
      render = { ...renderOf(key, page), output_format: 'html', preview_html: page.html };
    } else {
      // Hosted, only its size: the page is built when it is opened.
      const size = settings.renderer.measure(format, shown, { macros });
      const png =
        snapshot && item.quality === 'production'
          ? await settings.renderer.renderPng(format, manifest, { macros })
          : null;
      key = stored.add({ source: { format: format.format_id.id, manifest: shown, macros }, ...size, png });
      const url = `${previewsUrl}/${key}`;
      render = {
        ...renderOf(key, size),
        output_format: 'url',
        preview_url: url,
        ...(snapshot ? { snapshot_url: `${url}.png` } : {}),
      };
    }
    previews.push({
      preview_id: key,
      renders: [render],
      input: {
        name: input.name,
        ...(input.macros ? { macros: input.macros } : {}),
        ...(input.context_description ? { context_description: input.context_description } : {}),
      },
    });
  }
  return previews;
}

const renderOf = (key: string, { width, height }: { width: number; height: number }) => ({
  render_id: `${key}-primary`,
  role: 'primary',
  dimensions: { width, height },
  embedding: {
    recommended_sandbox: 'allow-scripts allow-popups allow-popups-to-escape-sandbox',
    requires_https: false,
    supports_fullscreen: false,
  },
});

function publishedValid(args: Record<string, unknown>): boolean {
  try {
    checkPublishedRequest(REQUEST, args);
    return true;
  } catch (err) {
    if (err instanceof AgentError) return false;
    throw err;
  }
}

export const principalOf = (ctx: TaskContext) => `${ctx.principal.kind}:${ctx.principal.subject}`;

/** A batch item's error names its field within the request: `requests[2].creative_manifest.assets.logo`. */
function prefixed(err: AgentError, at: string): AgentError {
  if (err.field?.startsWith(at)) return err;
  return new AgentError(err.code, err.message, {
    field: err.field ? `${at}.${err.field}` : at,
    ...(err.suggestion ? { suggestion: err.suggestion } : {}),
    ...(err.details ? { details: err.details } : {}),
  });
}

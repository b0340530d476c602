import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../../clock.ts';
import type { Database } from '../../../db/database.ts';
import { ApError } from '../../../protocol/errors.ts';
import type { Format } from '../../formats/index.ts';
import { hasSnapshot, type Renderer } from './renderer.ts';
import { findPreview, storeSnapshot } from './sql.ts';

export interface PreviewRoutesOptions {
  db: Database;
  clock: Clock;
  /** Where the tenant is mounted: previews are served at `<path>/previews/<key>` and `<key>.png`. */
  path: string;
  formats: () => readonly Format[];
  renderer: Renderer;
}

const keyForm = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * The hosted previews preview_creative answers: public by their unguessable key (an iframe cannot
 * send credentials), the page with its own content security policy, or the PNG snapshot, rendered
 * at the first fetch when the call did not render it. Expired: 410 `preview_expired`; unknown: 404
 * `not_found`, in the catalogue's shape as every refusal.
 */
export function previewRoutes(
  app: FastifyInstance,
  { db, clock, path, formats, renderer }: PreviewRoutesOptions,
): void {
  app.get<{ Params: { file: string } }>(
    `${path}/previews/:file`,
    {
      schema: {
        summary: 'A hosted creative preview (HTML page, or PNG snapshot with .png)',
        tags: ['Agents'],
        params: { type: 'object', properties: { file: { type: 'string', maxLength: 80 } } },
      },
    },
    async (request, reply) => {
      const png = request.params.file.endsWith('.png');
      const key = png ? request.params.file.slice(0, -4) : request.params.file;
      const preview = keyForm.test(key) ? await findPreview(db, key) : undefined;
      if (!preview) throw new ApError('not_found', 'No such preview.');
      const left = Math.floor((preview.expires_at.getTime() - clock.now().getTime()) / 1000);
      if (left <= 0)
        throw new ApError(
          'preview_expired',
          `This preview expired at ${preview.expires_at.toISOString()}; call preview_creative again.`,
        );
      reply
        .header('cache-control', `public, max-age=${left}`)
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'no-referrer');
      const { source } = preview;
      // By id alone: the agent URL it was stored with may be an older spelling of this deployment's.
      const format = source && formats().find((f) => f.format_id.id === source.format);
      if (!png) {
        if (preview.html !== undefined) return reply.type('text/html; charset=utf-8').send(preview.html);
        if (!source || !format) throw new ApError('not_found', 'No such preview.');
        return reply
          .type('text/html; charset=utf-8')
          .send(renderer.renderHtml(format, source.manifest, { macros: source.macros }).html);
      }
      if (preview.png) return reply.type('image/png').send(Buffer.from(preview.png));
      if (!source || !format || !hasSnapshot(format)) throw new ApError('not_found', 'This preview has no snapshot.');
      const bytes = await renderer.renderPng(format, source.manifest, {
        macros: source.macros,
        size: { width: preview.width, height: preview.height },
      });
      await storeSnapshot(db, key, bytes);
      return reply.type('image/png').send(Buffer.from(bytes));
    },
  );
}

import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import { EXPORT_MEDIA_TYPES, type ExportFormat } from './export-format.js';

// Bytes the answer's stream holds before waiting for the client to read them: the next batch
// is read from the database only once the text of the one before has gone out.
const HIGH_WATER_MARK = 64 * 1024;

/** `assets-2026-11-29.csv`: what is exported, the UTC day, the format. */
export function exportFileName(name: string, format: ExportFormat, now: Date): string {
  return `${name}-${now.toISOString().slice(0, 10)}.${format}`;
}

/**
 * Answers `text` as an attachment, streamed: each chunk is asked for once the client has taken
 * the ones before. The first chunk is awaited before anything is sent, so that a failure there
 * is an error answer; a failure later can only cut the answer short, which destroys the
 * connection (Fastify does) rather than leave the client waiting. A client that goes away
 * ends the reading too (the stream is destroyed, which returns the iterator).
 */
export async function sendExport(
  reply: FastifyReply,
  name: string,
  format: ExportFormat,
  text: AsyncIterable<string>,
): Promise<void> {
  const chunks = text[Symbol.asyncIterator]();
  const first = await chunks.next();
  async function* all(): AsyncGenerator<string> {
    try {
      if (first.done) return;
      yield first.value;
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
        yield next.value;
      }
    } finally {
      await chunks.return?.();
    }
  }
  void reply
    .header('content-type', EXPORT_MEDIA_TYPES[format])
    .header(
      'content-disposition',
      `attachment; filename="${exportFileName(name, format, new Date())}"`,
    )
    .send(Readable.from(all(), { objectMode: false, highWaterMark: HIGH_WATER_MARK }));
}

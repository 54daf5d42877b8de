import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { ForbiddenError } from '../common/errors/forbidden.error.js';
import { UnreadBody } from '../common/http/unread-body.js';
import type { Principal } from '../common/principal.js';
import { actsAsAdmin, sourceRefusal } from '../common/key-rules.js';
import { Role, roleIncludes } from '../common/role.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { InventoryWriter } from '../database/writer/inventory-writer.js';
import { Dialect } from '../database/dialect/dialect.js';
import { IngestMetrics, type IngestRunLabels } from './ingest-metrics.service.js';
import type { IngestResponse } from './dto/ingest-response.dto.js';
import type { IngestPayload } from './ingest-payload.js';
import { openJsonInWorker } from './parse/json-worker.js';
import { parseIngestPayload, parseScannerPayload } from './validate/validate-payload.js';
import { optionsFromQuery, refuseQuery } from './validate/query-options.js';
import type { IngestHooks, IngestRunOptions } from './ingest-hooks.js';
import { chooseFormat, type ScannerBodyKind } from './formats/format-choice.js';
import { openScannerInWorker } from './parse/scanner-worker.js';
import { CHECK_ITEMS_PER_TURN } from '../database/ingest-tuning.js';
import { IngestRun, type IngestOutcome } from './ingest-run.js';
import { FindingDueDates } from '../findings/finding-due-dates.js';
import { FindingEvents } from '../findings/finding-events.js';

/** What besides the body tells how to read it: its Content-Type, and the query's options. */
export interface IngestForm {
  mediaType: string;
  query: Record<string, unknown>;
}

const JSON_FORM: IngestForm = { mediaType: 'application/json', query: {} };

/** The body's bytes (read now when still unread), or null for a value already parsed. */
async function bytesOf(raw: unknown): Promise<Buffer | null> {
  if (raw instanceof UnreadBody) return raw.read();
  return Buffer.isBuffer(raw) ? raw : null;
}

/** A body opened: its payload (options checked, items to come), and what to close after. */
interface OpenedPayload {
  payload: IngestPayload;
  close(): Promise<void>;
}

@Injectable()
export class IngestService implements OnModuleDestroy {
  constructor(
    private readonly writer: InventoryWriter,
    private readonly dialect: Dialect,
    private readonly metrics: IngestMetrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.findingEvents = new FindingEvents(new FindingDueDates(config.findingSlaDays));
  }

  private readonly findingEvents: FindingEvents;

  async onModuleDestroy(): Promise<void> {
    await this.dialect.settled();
  }

  /**
   * `raw` is the body as the HTTP layer hands it over (unparsed), the body already read, or an
   * already parsed value (JSON). `hooks` follow the run (ingest-hooks.ts). `form`: the body's
   * media type picks its format (JSON, or a scanner's: formats/), whose options come in the query.
   */
  ingest(
    caller: Principal,
    raw: unknown,
    hooks: IngestHooks,
    form: IngestForm = JSON_FORM,
  ): Promise<IngestResponse> {
    return this.metrics.measure((labels) => this.run(caller, raw, hooks, form, labels));
  }

  private async run(
    caller: Principal,
    raw: unknown,
    hooks: IngestHooks,
    form: IngestForm,
    labels: IngestRunLabels,
  ): Promise<IngestResponse> {
    const started = performance.now();
    // The top level is checked here; the items are read during the run, slice by slice.
    const kind = chooseFormat(form.mediaType, form.query.format);
    const opened = kind
      ? await this.openScanner(caller, raw, hooks, form, kind)
      : await this.openJson(caller, raw, hooks, form);
    const { payload } = opened;
    try {
      labels.mode = payload.mode;
      const answer = ({ counts, changes }: IngestOutcome): IngestResponse => ({
        success: true,
        runId: hooks.runId,
        dryRun: payload.dryRun,
        stats: { ...counts, duration: `${Math.round(performance.now() - started)}ms` },
        changes,
      });
      if (payload.dryRun) {
        // No write lock: the plan is made against a snapshot, and nothing is written.
        return answer(
          await this.dialect.inSnapshot((lookups) =>
            new IngestRun(payload, null, lookups).execute(),
          ),
        );
      }
      // After every write before it; one ingestion at a time across processes.
      const response = await this.writer.ingest(async (sql, lookups) => {
        const history = this.config.changeHistory
          ? { caller, requestId: hooks.requestId, runId: hooks.runId }
          : null;
        const run = new IngestRun(payload, sql, lookups, new Date(), history, this.findingEvents);
        const response = answer(await run.execute());
        await hooks.beforeCommit?.(sql, response);
        return response;
      });
      const { stats } = response;
      await this.dialect.afterIngestion({
        rowsMoved:
          stats.assetsCreated +
          stats.assetsDeleted +
          stats.relationsCreated +
          stats.relationsDeleted,
        assetsWritten: stats.assetsCreated + stats.assetsUpdated + stats.assetsUnchanged,
      });
      return response;
    } finally {
      await opened.close();
    }
  }

  /** A JSON body: parsed in a worker, its options in the body (none in the query). */
  private async openJson(
    caller: Principal,
    raw: unknown,
    hooks: IngestHooks,
    form: IngestForm,
  ): Promise<OpenedPayload> {
    refuseQuery(form.query);
    const bytes = await bytesOf(raw);
    const parsed = bytes?.length ? await openJsonInWorker(bytes) : null;
    // An empty body is no body, as on every other route.
    const body = parsed ? parsed.head : bytes ? undefined : raw;
    const close = async () => await parsed?.close();
    try {
      const mode = (body as { options?: { mode?: unknown } } | null)?.options?.mode;
      const payload = this.checkPayload(caller, 'json', mode, hooks, () =>
        parseIngestPayload(body, parsed?.slices),
      );
      return { payload, close };
    } catch (error) {
      await close();
      throw error;
    }
  }

  /**
   * A scanner's body (formats/): its options from the query (`format` besides), its items
   * converted in a worker, a slice ahead of the run, once the format is known (an XML body's
   * root element, when `?format=` did not name it).
   */
  private async openScanner(
    caller: Principal,
    raw: unknown,
    hooks: IngestHooks,
    form: IngestForm,
    kind: ScannerBodyKind,
  ): Promise<OpenedPayload> {
    const options = optionsFromQuery(form.query);
    const bytes = await bytesOf(raw);
    const body = await openScannerInWorker(kind, bytes ?? Buffer.alloc(0), CHECK_ITEMS_PER_TURN);
    try {
      const payload = this.checkPayload(caller, body.format, options.mode, hooks, () =>
        parseScannerPayload(options, body.slices),
      );
      return { payload, close: () => body.close() };
    } catch (error) {
      await body.close();
      throw error;
    }
  }

  /**
   * The options checked (`parse`) and handed to the hooks; the roles they need checked
   * around: replace before; the API key's sources and deleteStale without a source after.
   */
  private checkPayload(
    caller: Principal,
    format: IngestRunOptions['format'],
    mode: unknown,
    hooks: IngestHooks,
    parse: () => IngestPayload,
  ): IngestPayload {
    const admin = actsAsAdmin(caller);
    // An admin's key without the `admin` scope is told which rule refused it.
    const adminOnly = (what: string) =>
      new ForbiddenError(
        roleIncludes(caller.role, Role.Admin)
          ? `${what} needs the admin scope: API key lacks the scope 'admin'`
          : `${what} requires the admin role`,
      );
    if (mode === 'replace' && !admin) throw adminOnly('replace mode');
    const payload = parse();
    const { deleteStale, source, dryRun } = payload;
    const sourceRefused = sourceRefusal(caller, source);
    // A run refused its source does not name it: it would list a feed the key may not write
    // (GET /api/sources). Its error names the source.
    hooks.optionsRead?.({
      format,
      mode: payload.mode,
      source: sourceRefused ? null : source,
      deleteStale,
      dryRun,
    });
    if (sourceRefused) throw new ForbiddenError(sourceRefused);
    // Without a source, deleteStale deletes whatever the payload leaves out, as replace does.
    if (payload.mode === 'merge' && deleteStale && source === null && !admin) {
      const [stale, from] =
        format === 'json' ? ['options.deleteStale', 'options.source'] : ['deleteStale', 'source'];
      throw adminOnly(`${stale} without ${from}`);
    }
    return payload;
  }
}

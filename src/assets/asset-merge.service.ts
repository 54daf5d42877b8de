import { Injectable } from '@nestjs/common';
import { ConflictError } from '../common/errors/conflict.error.js';
import { InvalidInputError } from '../common/errors/invalid-input.error.js';
import { NotFoundError } from '../common/errors/not-found.error.js';
import {
  IDENTITY_LISTS,
  identityText,
  MAX_IDENTITY_ENTRIES,
  type IdentityList,
} from '../common/field-rules/identity-values.js';
import type { FindingPeriod } from '../database/entities/finding-period.entity.js';
import type { Finding } from '../database/entities/finding.entity.js';
import {
  updateChange,
  type ChangeInput,
  type ChangeOrigin,
} from '../database/history/change-origin.js';
import { AssetsRepository } from '../database/repositories/assets.repository.js';
import { DiagramsRepository } from '../database/repositories/diagrams.repository.js';
import { FindingsRepository } from '../database/repositories/findings.repository.js';
import { RelationsRepository } from '../database/repositories/relations.repository.js';
import { identityOfRow } from '../database/tables/asset-identifiers.table.js';
import type { PositionedSourceRow } from '../database/tables/asset-sources.table.js';
import type { FindingSourceRow } from '../database/tables/finding-sources.table.js';
import type { ServiceRow } from '../database/tables/services.table.js';
import { InventoryWriter } from '../database/writer/inventory-writer.js';
import type { WriteUnit } from '../database/writer/write-unit.js';
import { toDiagramResponse } from '../diagrams/dto/diagram-response.dto.js';
import { toRelationResponse } from '../relations/dto/relation-response.dto.js';
import { assetResponses } from './asset-responses.js';
import type { AssetResponse } from './dto/asset-response.dto.js';
import { groupByAsset } from './group-by-asset.js';
import {
  planFindingFolds,
  planRelationMoves,
  rewriteDiagramContent,
  union,
  type MergedFinding,
} from './merge/plan-merge.js';

const assetNotFound = (id: string) => new NotFoundError(`asset ${id} not found`);

/** The earliest (`pick` Math.min) or latest of some ISO timestamps, null among them left out. */
function extreme(stamps: readonly (string | null)[], pick: typeof Math.min): Date | null {
  const times = stamps.flatMap((stamp) => (stamp === null ? [] : [Date.parse(stamp)]));
  return times.length === 0 ? null : new Date(pick(...times));
}

/**
 * Merging (`POST /api/assets/:id/merge`): the assets of `from` folded into the asset of the
 * path in one unit of the writer, recorded as the target's update and each merged asset's
 * deletion (with the relations and diagrams the merge changes), the merged ids kept as aliases
 * that ingestion resolves.
 */
@Injectable()
export class AssetMergeService {
  constructor(
    private readonly assets: AssetsRepository,
    private readonly findings: FindingsRepository,
    private readonly relations: RelationsRepository,
    private readonly diagrams: DiagramsRepository,
    private readonly writer: InventoryWriter,
  ) {}

  async merge(origin: ChangeOrigin, id: string, from: readonly string[]): Promise<AssetResponse> {
    if (from.includes(id)) {
      throw new InvalidInputError(`from must not name the asset merged into (${id})`);
    }
    return this.writer.write(origin, async (unit) => {
      const { manager } = unit;
      const stored = await this.assets.forMerge(manager, [id, ...from]);
      const rows = new Map(stored.rows.map((row) => [row.id, row]));
      for (const named of [id, ...from]) if (!rows.has(named)) throw assetNotFound(named);
      // Each as the API shows it: what the records show, and the sightings.
      const before = new Map(
        assetResponses(await this.assets.withLists(stored.rows, manager)).map((asset) => [
          asset.id,
          asset,
        ]),
      );
      const now = new Date();
      // Creation records kept without a copy get theirs before anything changes.
      await unit.deletingAssets(from);
      await unit.changing('asset', [id]);

      // The identity lists: the target's values first, then each merged asset's in turn.
      const ordered = [id, ...from].map((named) => identityOfRow(rows.get(named)!));
      const lists = {} as Record<IdentityList, string[]>;
      for (const list of IDENTITY_LISTS) {
        lists[list] = union(
          ordered.map((values) => values[list]),
          String,
        );
        if (lists[list].length > MAX_IDENTITY_ENTRIES) {
          throw new ConflictError(
            `the merged asset would hold ${lists[list].length} ${list}, more than ${MAX_IDENTITY_ENTRIES}`,
          );
        }
      }
      const sightings = [id, ...from].map((named) => before.get(named)!);
      await this.assets.update(manager, id, {
        ip: lists.addresses[0] ?? null,
        addresses: identityText(lists.addresses),
        macAddresses: identityText(lists.macAddresses),
        hostnames: identityText(lists.hostnames),
        firstSeenAt: extreme(
          sightings.map((asset) => asset.firstSeenAt),
          Math.min,
        ),
        lastSeenAt: extreme(
          sightings.map((asset) => asset.lastSeenAt),
          Math.max,
        ),
        updatedAt: now,
      });
      await this.assets.replaceIdentifiers(manager, id);
      await this.mergeServices(unit, id, from, stored.services);
      await this.mergeSources(unit, id, from, stored.sources);
      await this.mergeFindings(unit, id, from, now);
      const relationChanges = await this.moveRelations(unit, id, from, now);
      const diagramChanges = await this.renameInDiagrams(unit, id, from, now);
      await this.assets.addAliases(manager, id, from);
      await this.assets.deleteMany(manager, from);

      const after = assetResponses(
        await this.assets.withLists([(await this.assets.find(id, manager))!], manager),
      )[0];
      const targetChange = updateChange('asset', id, before.get(id)!, after);
      unit.record(
        // A merge that changes none of the target's fields is recorded on it all the same.
        ...(targetChange.length > 0
          ? targetChange
          : [
              {
                action: 'update' as const,
                objectType: 'asset' as const,
                objectId: id,
                before: {},
                after: {},
              },
            ]),
        ...from.map((named): ChangeInput => ({
          action: 'delete',
          objectType: 'asset',
          objectId: named,
          before: before.get(named)!,
          after: null,
        })),
        ...relationChanges,
        ...diagramChanges,
      );
      return after;
    });
  }

  /** The target's services, then each merged asset's on a (port, protocol) it does not have. */
  private async mergeServices(
    unit: WriteUnit,
    id: string,
    from: readonly string[],
    services: readonly ServiceRow[],
  ): Promise<void> {
    const byAsset = groupByAsset(services);
    const own = byAsset.get(id) ?? [];
    const merged = union(
      [id, ...from].map((named) => byAsset.get(named) ?? []),
      (service) => `${service.port}/${service.protocol}`,
    );
    if (merged.length === own.length) return;
    await this.assets.replaceServices(
      unit.manager,
      id,
      merged.map(({ port, protocol, name, product, version }) => ({
        port,
        protocol,
        name,
        product,
        version,
      })),
    );
  }

  /** The feeds of the merged assets' `sources` the target lacks, after its own, in turn. */
  private async mergeSources(
    unit: WriteUnit,
    id: string,
    from: readonly string[],
    sources: readonly PositionedSourceRow[],
  ): Promise<void> {
    const byAsset = groupByAsset(sources);
    const own = byAsset.get(id) ?? [];
    const merged = union(
      [id, ...from].map((named) => (byAsset.get(named) ?? []).map((row) => row.source)),
      String,
    );
    const next = own.length === 0 ? 0 : Math.max(...own.map((row) => Number(row.position))) + 1;
    await this.assets.appendSources(unit.manager, id, merged.slice(own.length), next);
  }

  /**
   * One finding per vulnerability id on the target (planFindingFolds); the others go with their
   * assets. The finding_counts triggers follow every row written or deleted.
   */
  private async mergeFindings(
    unit: WriteUnit,
    id: string,
    from: readonly string[],
    now: Date,
  ): Promise<void> {
    const { rows, sources, periods } = await this.findings.ofAssetsForMerge(unit.manager, [
      id,
      ...from,
    ]);
    const sourcesOf = groupBy(sources, (source) => source.finding_id);
    const periodsOf = groupBy(periods, (period) => period.findingId);
    const folds = planFindingFolds(
      id,
      from,
      rows.map((row) =>
        mergedFinding(row, sourcesOf.get(row.id) ?? [], periodsOf.get(row.id) ?? []),
      ),
      now,
    );
    if (folds.length === 0) return;
    const byId = new Map(rows.map((row) => [row.id, row]));
    await unit.changing(
      'finding',
      folds.map((fold) => fold.id),
    );
    for (const fold of folds) {
      await this.findings.fold(unit.manager, fold.id, {
        assetId: id,
        firstSeenAt: fold.firstSeenAt,
        lastSeenAt: fold.lastSeenAt,
      });
      if (fold.periods !== null)
        await this.findings.replacePeriods(unit.manager, byId.get(fold.id)!, fold.periods);
    }
    await this.findings.addSources(
      unit.manager,
      folds.flatMap((fold) =>
        fold.sourceAdds.map(({ source, position }) => ({ findingId: fold.id, source, position })),
      ),
    );
  }

  /** The merged assets' relations re-pointed to the target (planRelationMoves); their records. */
  private async moveRelations(
    unit: WriteUnit,
    id: string,
    from: readonly string[],
    now: Date,
  ): Promise<ChangeInput[]> {
    const touching = await this.relations.findTouchingAny(unit.manager, [id, ...from]);
    const { deletes, moves } = planRelationMoves(id, from, touching);
    await this.relations.deleteMany(
      unit.manager,
      deletes.map((relation) => relation.id),
    );
    const changes: ChangeInput[] = deletes.map((relation) => ({
      action: 'delete',
      objectType: 'relation',
      objectId: relation.id,
      before: toRelationResponse(relation),
      after: null,
    }));
    for (const { relation, sourceAssetId, targetAssetId } of moves) {
      await this.relations.repoint(unit.manager, relation.id, {
        sourceAssetId,
        targetAssetId,
        updatedAt: now,
      });
      changes.push(
        ...updateChange(
          'relation',
          relation.id,
          toRelationResponse(relation),
          toRelationResponse({ ...relation, sourceAssetId, targetAssetId, updatedAt: now }),
        ),
      );
    }
    return changes;
  }

  /** Diagrams naming a merged asset in `content.nodes[].assetId` name the target instead. */
  private async renameInDiagrams(
    unit: WriteUnit,
    id: string,
    from: readonly string[],
    now: Date,
  ): Promise<ChangeInput[]> {
    // As each id is written inside a JSON string.
    const texts = from.map((named) => JSON.stringify(named).slice(1, -1));
    const changes: ChangeInput[] = [];
    for (const diagram of await this.diagrams.findContaining(unit.manager, texts)) {
      const content = rewriteDiagramContent(diagram.content, id, from);
      if (content === null) continue;
      await this.diagrams.update(unit.manager, diagram.id, { content, updatedAt: now }, null);
      changes.push(
        ...updateChange(
          'diagram',
          diagram.id,
          toDiagramResponse(diagram),
          toDiagramResponse({ ...diagram, content, updatedAt: now }),
        ),
      );
    }
    return changes;
  }
}

/** Items by a key of theirs, each key's in their order. */
function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

/**
 * A finding as planFindingFolds reads it, with its sources (`own`, in position order) and its
 * open periods.
 */
function mergedFinding(
  row: Finding,
  own: readonly FindingSourceRow[],
  periods: readonly FindingPeriod[],
): MergedFinding {
  return {
    id: row.id,
    assetId: row.assetId,
    vulnId: row.vulnId,
    status: row.status,
    firstSeenAt: row.firstSeenAt,
    lastSeenAt: row.lastSeenAt,
    periods: periods.map(({ openedAt, closedAt }) => ({ openedAt, closedAt })),
    sources: own.map((source) => source.source),
    nextPosition: own.length === 0 ? 0 : Math.max(...own.map((s) => Number(s.position))) + 1,
  };
}

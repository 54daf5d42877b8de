import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { EntityManager } from 'typeorm';
import { AppDataSource } from '../app-data-source.js';
import { runNamed } from '../sql-reads.js';
import type { FindingSourceRow } from '../tables/finding-sources.table.js';
import type { FindingRow } from '../tables/findings.table.js';
import { FINDINGS_SELECT, FINDING_SOURCES_SELECT } from './findings/finding-selects.js';

/** Stored findings' rows, with the `sources` of each in order. */
export interface FindingsWithSources {
  rows: FindingRow[];
  sources: Map<string, string[]>;
}

/**
 * Every query over the findings that the API's routes make (the writes that list an asset's
 * vulnerabilities share the ingestion's statements: findings/finding-writes.ts).
 */
@Injectable()
export class FindingsRepository {
  constructor(@InjectDataSource() private readonly dataSource: AppDataSource) {}

  /** The findings of these ids, as `manager` (a write unit's, or the service's) sees them. */
  async byIds(
    ids: readonly string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<FindingsWithSources> {
    if (ids.length === 0) return { rows: [], sources: new Map() };
    const rows = await runNamed<FindingRow>(manager, `${FINDINGS_SELECT} WHERE id IN (:...ids)`, {
      ids,
    });
    return { rows, sources: await this.sourcesOf(ids, manager) };
  }

  /** The `sources` of these findings, in position order, by finding id. */
  private async sourcesOf(
    ids: readonly string[],
    manager: EntityManager,
  ): Promise<Map<string, string[]>> {
    const rows = await runNamed<FindingSourceRow>(
      manager,
      `${FINDING_SOURCES_SELECT} WHERE finding_id IN (:...ids) ORDER BY finding_id, position`,
      { ids },
    );
    const byFinding = new Map<string, string[]>();
    for (const row of rows) {
      const list = byFinding.get(row.finding_id);
      if (list) list.push(row.source);
      else byFinding.set(row.finding_id, [row.source]);
    }
    return byFinding;
  }
}

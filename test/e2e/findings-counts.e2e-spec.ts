import { describe, expect, it } from '@jest/globals';
import { Finding } from '../../src/database/entities/finding.entity.js';
import { useIngestionApp } from '../support/ingest-helpers.js';
import type { TestApp } from '../support/test-app.js';

const INGEST = '/api/integrations/ingest';
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

type Json = Record<string, any>;
type CountRow = { kind: string; status: string; severity: string; day: string; total: number };

/**
 * The findings' counts (the rows the summary, the trend and the list's total read instead of
 * counting every finding): kept by the database's triggers through every kind of write, and
 * read to the minute where a day's count cannot say.
 */
describe('findings counts', () => {
  let t: TestApp;
  let admin: string;
  let editor: string;

  useIngestionApp((app) => ({ t, admin, editor } = app), { emptyEach: true });

  const ok = async (method: string, path: string, body?: unknown, token = editor) => {
    const response = await t.request(method, path, { token, body });
    if (response.status >= 300)
      throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body as Json;
  };
  const idOf = async (assetId: string, vulnId: string): Promise<string> =>
    (await ok('GET', `/api/findings?assetId=${assetId}&vulnId=${vulnId}`))[0].id as string;
  const setFinding = (id: string, values: Partial<Finding>) =>
    t.seed(() => t.dataSource.getRepository(Finding).update(id, values));

  /** The counts as kept (their keys' sums) and as counted again from the rows, both sorted. */
  async function keptAndRecounted(): Promise<{ kept: CountRow[]; recounted: CountRow[] }> {
    const day = (column: string) =>
      t.dataSource.options.type === 'postgres'
        ? `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`
        : `substr(${column}, 1, 10)`;
    const grouped = (kind: string, status: string, column: string | null, from: string) =>
      `SELECT '${kind}' AS kind, ${status} AS status, severity, ${column === null ? "''" : day(column)} AS day, COUNT(*) AS total
      FROM ${from} GROUP BY ${[...(status === "''" ? [] : [status]), 'severity', ...(column === null ? [] : [day(column)])].join(', ')}`;
    const rows = async (sql: string): Promise<CountRow[]> =>
      (await t.dataSource.query<CountRow[]>(sql))
        .map((row) => ({ ...row, total: Number(row.total) }))
        .sort((a, b) =>
          `${a.kind} ${a.status} ${a.severity} ${a.day}`.localeCompare(
            `${b.kind} ${b.status} ${b.severity} ${b.day}`,
          ),
        );
    return {
      kept: await rows(
        'SELECT kind, status, severity, day, SUM(total) AS total FROM finding_counts GROUP BY kind, status, severity, day HAVING SUM(total) <> 0',
      ),
      recounted: await rows(
        [
          grouped('status', 'status', null, 'findings'),
          grouped('seen', "''", 'first_seen_at', 'findings'),
          grouped('fixed', "''", 'fixed_at', "findings WHERE status = 'fixed'"),
          grouped(
            'due',
            "''",
            'COALESCE(reopened_at, first_seen_at)',
            "findings WHERE status = 'open'",
          ),
          grouped('opened', "''", 'opened_at', 'finding_periods'),
          grouped('closed', "''", 'closed_at', 'finding_periods WHERE closed_at IS NOT NULL'),
        ].join(' UNION ALL '),
      ),
    };
  }
  /** The counts equal to a recount, and each period counted under its finding's severity. */
  const expectCountsKept = async (step: string) => {
    const { kept, recounted } = await keptAndRecounted();
    expect([step, kept]).toEqual([step, recounted]);
    const [{ n }] = await t.dataSource.query(
      'SELECT COUNT(*) AS n FROM finding_periods p JOIN findings f ON f.id = p.finding_id WHERE p.severity <> f.severity',
    );
    expect([step, Number(n)]).toEqual([step, 0]);
  };

  it('stay equal to a recount through every kind of write', async () => {
    const web = await ok('POST', '/api/assets', {
      name: 'web',
      vulnerabilities: [{ id: 'CVE-A', score: 9.8 }, { id: 'CVE-B', score: 5 }, { id: 'CVE-N' }],
    });
    await expectCountsKept('created by hand');
    const scan = (vulnerabilities: Json[], more: Json[] = []) =>
      ok('POST', INGEST, {
        options: { source: 'scan-1' },
        assets: [{ id: 'db', name: 'db', vulnerabilities }, ...more],
      });
    await scan(
      [
        { id: 'CVE-A', score: 9.8 },
        { id: 'CVE-C', score: 7.5 },
        { id: 'CVE-L', score: 2 },
      ],
      [{ id: 'gone', name: 'gone', vulnerabilities: [{ id: 'CVE-X', score: 4 }] }],
    );
    await expectCountsKept('ingested');
    await ok('PUT', `/api/assets/${web.id}`, { vulnerabilities: [{ id: 'CVE-A', score: 9.8 }] });
    await expectCountsKept('fixed by a PUT');
    // Listed again at another severity: reopened, its periods counted under the new one.
    await ok('PUT', `/api/assets/${web.id}`, {
      vulnerabilities: [
        { id: 'CVE-A', score: 9.8 },
        { id: 'CVE-B', score: 9.1 },
      ],
    });
    await expectCountsKept('reopened at another severity');
    const b = await ok('GET', `/api/findings/${await idOf(web.id, 'CVE-B')}`);
    expect([b.status, b.severity, b.reopenCount]).toEqual(['open', 'critical', 1]);
    // The feed's next scan: C at a lower score, L left out (fixed by the feed).
    await scan([
      { id: 'CVE-A', score: 9.8 },
      { id: 'CVE-C', score: 3 },
    ]);
    await expectCountsKept('rescored and fixed by a feed');
    const a = await idOf('db', 'CVE-A');
    await ok('PATCH', `/api/findings/${a}`, { status: 'false_positive', reason: 'banner' });
    await ok('PATCH', `/api/findings/${await idOf('db', 'CVE-C')}`, {
      status: 'accepted',
      reason: 'isolated',
      acceptedUntil: new Date(Date.now() + 10 * DAY_MS).toISOString(),
    });
    await expectCountsKept('triaged');
    await ok('PATCH', `/api/findings/${a}`, { status: 'open' });
    await expectCountsKept('triage undone');
    // Times moved by hand, as a migration or a restore would.
    await setFinding(a, { firstSeenAt: new Date(Date.now() - 40 * DAY_MS) });
    await expectCountsKept('first sighting moved');
    // Folded into db: CVE-A kept as db's, with web's sightings; CVE-B moved; the rest deleted.
    await ok('POST', `/api/assets/db/merge`, { from: [web.id] });
    await expectCountsKept('merged');
    expect((await ok('GET', '/api/findings?assetId=db&limit=1000')).length).toBe(5);
    await ok('DELETE', '/api/assets/gone');
    await expectCountsKept('asset deleted');
    await ok(
      'POST',
      INGEST,
      {
        options: { mode: 'replace', source: 'scan-2' },
        assets: [{ id: 'new', name: 'new', vulnerabilities: [{ id: 'CVE-Z', score: 6 }] }],
      },
      admin,
    );
    await expectCountsKept('replaced');
    const { kept } = await keptAndRecounted();
    expect(kept.filter((row) => row.kind === 'status')).toEqual([
      { kind: 'status', status: 'open', severity: 'medium', day: '', total: 1 },
    ]);
  });

  it('count the overdue and the last 30 days to the minute, whatever the day boundary', async () => {
    const now = Date.now();
    await ok('POST', '/api/assets', {
      name: 'web',
      vulnerabilities: ['CVE-1', 'CVE-2', 'CVE-3', 'CVE-4', 'CVE-5'].map((id) => ({
        id,
        score: 9.5,
      })),
    });
    const ids = (await ok('GET', '/api/findings?sort=firstSeenAt')).map((f: Json) => f.id);
    const ago = (ms: number) => new Date(now - ms);
    // Critical findings are due 15 days after their first sighting: 1 past due by two
    // minutes, 2 due in two minutes; 3 and 4 first seen just inside and just outside the
    // last 30 days; 5 fixed just inside them.
    await setFinding(ids[0], { firstSeenAt: ago(15 * DAY_MS + 2 * MINUTE_MS) });
    await setFinding(ids[1], { firstSeenAt: ago(15 * DAY_MS - 2 * MINUTE_MS) });
    await setFinding(ids[2], { firstSeenAt: ago(30 * DAY_MS - 2 * MINUTE_MS) });
    await setFinding(ids[3], { firstSeenAt: ago(30 * DAY_MS + 2 * MINUTE_MS) });
    await setFinding(ids[4], {
      firstSeenAt: ago(31 * DAY_MS + 2 * MINUTE_MS),
      status: 'fixed',
      fixedAt: ago(30 * DAY_MS - 2 * MINUTE_MS),
    });
    const summary = await ok('GET', '/api/findings/summary');
    expect(summary).toMatchObject({
      open: { critical: 4 },
      fixed: 1,
      // 1, 3 and 4 (all first seen more than 15 days ago).
      overdue: { critical: 3 },
      // 1, 2 and 3 (4 and 5 were first seen before).
      openedLast30Days: 3,
      fixedLast30Days: 1,
    });
    // The same, counted rather than read from the counts (a filter they do not serve, which
    // keeps every one of them).
    expect(await ok('GET', '/api/findings/summary?minScore=0')).toEqual(summary);
  });
});

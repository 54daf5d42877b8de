import { beforeAll, describe, expect, it } from '@jest/globals';
import { Finding } from '../../src/database/entities/finding.entity.js';
import { DAY_MS, dayOf, noonDaysBefore, setPeriod } from '../support/finding-periods.js';
import { useIngestionApp } from '../support/ingest-helpers.js';
import { expectErrorBody, type TestApp } from '../support/test-app.js';
import { testingPostgres } from '../support/test-database.js';

const INGEST = '/api/integrations/ingest';
const NO_COUNTS = { critical: 0, high: 0, medium: 0, low: 0, none: 0 };

type Json = Record<string, any>;

/** Findings (section 16): the reads, their filters and order, the summary, the trend, triage. */
describe('findings', () => {
  let t: TestApp;
  let admin: string;
  let editor: string;
  let viewer: string;
  let editorUser: { id: string; email: string };

  // Every test starts on an empty store (a replace ingestion deletes every finding).
  useIngestionApp((app) => ({ t, admin, editor } = app), { emptyEach: true });

  beforeAll(async () => {
    viewer = (await t.createUser('viewer')).token;
    const me = await t.request('GET', '/api/auth/me', { token: editor });
    editorUser = { id: me.body.id as string, email: me.body.email as string };
  });

  const ok = async (method: string, path: string, body?: unknown, token = editor) => {
    const response = await t.request(method, path, { token, body });
    if (response.status >= 300)
      throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body as Json;
  };
  /** A list route's page and its X-Total-Count. */
  const page = async (path: string, token = viewer) => {
    const response = await t.request('GET', path, { token });
    expect([response.status, response.body]).toEqual([200, expect.any(Array)]);
    return { list: response.body as Json[], total: Number(response.headers.get('x-total-count')) };
  };
  const findings = async (query = '') => (await page(`/api/findings${query}`)).list;
  /** `vulnId@assetName` of each finding, in the answer's order. */
  const keys = (list: Json[], names: Record<string, string>) =>
    list.map((finding) => `${finding.vulnId}@${names[finding.assetId]}`);
  const summary = async (query = '') =>
    ok('GET', `/api/findings/summary${query}`, undefined, viewer);
  const trend = async (query = '') => {
    const before = dayOf(Date.now());
    const response = await t.request('GET', `/api/findings/trend${query}`, { token: viewer });
    const after = dayOf(Date.now());
    expect(response.status).toBe(200);
    const entries = response.body as Json[];
    // The last entry is today, whichever side of a midnight the request fell on.
    expect([before, after]).toContain(entries[entries.length - 1].date);
    return entries;
  };
  const patch = (id: string, body: unknown, token = editor) =>
    t.request('PATCH', `/api/findings/${id}`, { token, body });
  const triage = async (id: string, body: unknown, token = editor) => {
    const response = await patch(id, body, token);
    expect([response.status, response.body.error]).toEqual([200, undefined]);
    return response.body as Json;
  };
  const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

  /**
   * Written to the database (there is no waiting for a clock in a test): a finding's stored
   * columns, such as the time it was first seen or the end of its acceptance.
   */
  const setFinding = (id: string, values: Partial<Finding>) =>
    t.seed(() => t.dataSource.getRepository(Finding).update(id, values));

  /**
   * Two assets: `web` (site paris, entered by hand) with A (9.8), B (5) and N (no score), B
   * then fixed by a PUT that leaves it out; `db` (site lyon, ingested by feed scan-1) with A
   * (9.8), C (7.5) and L (2). Answers the finding ids by `vulnId@asset` and the asset names
   * by id.
   */
  async function fixture() {
    const web = await ok('POST', '/api/assets', {
      name: 'web',
      site: 'paris',
      vulnerabilities: [
        { id: 'CVE-A', score: 9.8, summary: 'remote code execution' },
        { id: 'CVE-B', score: 5 },
        { id: 'CVE-N' },
      ],
    });
    await ok('POST', INGEST, {
      options: { source: 'scan-1' },
      assets: [
        {
          id: 'db',
          name: 'db',
          site: 'lyon',
          vulnerabilities: [
            { id: 'CVE-A', score: 9.8 },
            { id: 'CVE-C', score: 7.5, publishedDate: '2024-01-02' },
            { id: 'CVE-L', score: 2 },
          ],
        },
      ],
    });
    await ok('PUT', `/api/assets/${web.id}`, {
      vulnerabilities: [
        { id: 'CVE-A', score: 9.8, summary: 'remote code execution' },
        { id: 'CVE-N' },
      ],
    });
    const names: Record<string, string> = { [web.id]: 'web', db: 'db' };
    const all = await findings('?limit=1000');
    const ids: Record<string, string> = {};
    for (const finding of all) ids[`${finding.vulnId}@${names[finding.assetId]}`] = finding.id;
    return { webId: web.id as string, names, ids };
  }

  describe('GET /api/findings', () => {
    it('answers a bare array with X-Total-Count, by score descending then id, unscored last', async () => {
      const { names, webId } = await fixture();
      const { list, total } = await page('/api/findings');
      expect(total).toBe(6);
      expect(keys(list, names).slice(2)).toEqual([
        'CVE-C@db',
        'CVE-B@web',
        'CVE-L@db',
        'CVE-N@web',
      ]);
      // The two of score 9.8 by id.
      expect(list.slice(0, 2).map((f) => f.vulnId)).toEqual(['CVE-A', 'CVE-A']);
      expect(list[0].id < list[1].id).toBe(true);
      const byKey = Object.fromEntries(list.map((f) => [keys([f], names)[0], f]));
      expect(byKey['CVE-C@db']).toEqual({
        id: expect.any(String),
        assetId: 'db',
        vulnId: 'CVE-C',
        score: 7.5,
        severity: 'high',
        summary: null,
        publishedDate: '2024-01-02',
        status: 'open',
        sources: ['scan-1'],
        firstSeenAt: expect.any(String),
        lastSeenAt: expect.any(String),
        fixedAt: null,
        reopenedAt: null,
        reopenCount: 0,
        reason: null,
        acceptedUntil: null,
        triagedBy: null,
        dueAt: expect.any(String),
        overdue: false,
      });
      // High: 30 days from its first sighting (FINDING_SLA_DAYS' default).
      const c = byKey['CVE-C@db'];
      expect(Date.parse(c.dueAt) - Date.parse(c.firstSeenAt)).toBe(30 * DAY_MS);
      expect(byKey['CVE-B@web']).toMatchObject({
        assetId: webId,
        severity: 'medium',
        status: 'fixed',
        fixedAt: expect.any(String),
        sources: [],
      });
      expect(byKey['CVE-N@web']).toMatchObject({ severity: 'none', dueAt: null, overdue: false });
      expect(byKey['CVE-L@db'].severity).toBe('low');

      const first = await page('/api/findings?limit=2&offset=1');
      expect([first.total, first.list.map((f) => f.id)]).toEqual([
        6,
        list.slice(1, 3).map((f) => f.id),
      ]);
      expect(await page('/api/findings?offset=6')).toEqual({ list: [], total: 6 });
    });

    it('filters by status, severity, vulnerability, asset, source, site and score', async () => {
      const { names, webId } = await fixture();
      const filtered = async (query: string) => {
        const { list, total } = await page(`/api/findings?${query}&limit=1000`);
        expect(total).toBe(list.length);
        return keys(list, names).sort();
      };
      expect(await filtered('status=fixed')).toEqual(['CVE-B@web']);
      expect(await filtered('status=open')).toEqual(
        ['CVE-A@db', 'CVE-A@web', 'CVE-C@db', 'CVE-L@db', 'CVE-N@web'].sort(),
      );
      expect(await filtered('status=fixed,accepted,false_positive')).toEqual(['CVE-B@web']);
      expect(await filtered('severity=critical,none')).toEqual(
        ['CVE-A@db', 'CVE-A@web', 'CVE-N@web'].sort(),
      );
      expect(await filtered('severity=medium&status=open')).toEqual([]);
      expect(await filtered('vulnId=CVE-A')).toEqual(['CVE-A@db', 'CVE-A@web']);
      expect(await filtered(`assetId=${webId}`)).toEqual(['CVE-A@web', 'CVE-B@web', 'CVE-N@web']);
      expect(await filtered('source=scan-1')).toEqual(['CVE-A@db', 'CVE-C@db', 'CVE-L@db']);
      expect(await filtered('source=other')).toEqual([]);
      expect(await filtered('site=paris')).toEqual(['CVE-A@web', 'CVE-B@web', 'CVE-N@web']);
      expect(await filtered('site=lyon&minScore=7.5')).toEqual(['CVE-A@db', 'CVE-C@db']);
      expect(await filtered('minScore=0')).toEqual(
        ['CVE-A@db', 'CVE-A@web', 'CVE-B@web', 'CVE-C@db', 'CVE-L@db'].sort(),
      );
      expect(await filtered('minScore=9.9')).toEqual([]);
    });

    it('sorts by each field, either way, missing values last and ties by id', async () => {
      const { names } = await fixture();
      const timeOf = (value: string | null) => (value === null ? null : Date.parse(value));
      const fields: Record<string, (f: Json) => number | null> = {
        score: (f) => f.score,
        firstSeenAt: (f) => timeOf(f.firstSeenAt),
        lastSeenAt: (f) => timeOf(f.lastSeenAt),
        dueAt: (f) => timeOf(f.dueAt),
        fixedAt: (f) => timeOf(f.fixedAt),
      };
      for (const [field, valueOf] of Object.entries(fields)) {
        for (const descending of [false, true]) {
          const list = await findings(`?sort=${descending ? '-' : ''}${field}`);
          expect(list).toHaveLength(6);
          for (let i = 1; i < list.length; i++) {
            const [a, b] = [valueOf(list[i - 1]), valueOf(list[i])];
            const where = `sort=${descending ? '-' : ''}${field} at ${i}: ${keys(list, names).join(' ')}`;
            if (a === null) expect([where, b]).toEqual([where, null]);
            if (a === b) expect([where, list[i - 1].id < list[i].id]).toEqual([where, true]);
            else if (b !== null)
              expect([where, descending ? a! > b : a! < b]).toEqual([where, true]);
          }
        }
      }
      // By due date: critical ones (15 days), high (30), medium (90), low (180), none last.
      expect(keys(await findings('?sort=dueAt'), names).slice(2)).toEqual([
        'CVE-C@db',
        'CVE-B@web',
        'CVE-L@db',
        'CVE-N@web',
      ]);
      expect(keys(await findings('?sort=-dueAt'), names)).toEqual([
        'CVE-L@db',
        'CVE-B@web',
        'CVE-C@db',
        expect.stringMatching(/^CVE-A@/),
        expect.stringMatching(/^CVE-A@/),
        'CVE-N@web',
      ]);
      // Only B is fixed: first either way.
      expect(keys(await findings('?sort=-fixedAt&limit=1'), names)).toEqual(['CVE-B@web']);
      expect(keys(await findings('?sort=fixedAt&limit=1'), names)).toEqual(['CVE-B@web']);
    });

    /**
     * The statement a list request sends that matches `pattern`, as the database is sent it,
     * and the list it answers.
     */
    async function statementOf(query: string, pattern: RegExp) {
      const queries: { sql: string; parameters: unknown[] }[] = [];
      const logger = t.dataSource.logger;
      const original = logger.logQuery.bind(logger);
      logger.logQuery = (sql: string, parameters?: unknown[]) => {
        queries.push({ sql, parameters: parameters ?? [] });
      };
      Object.assign(t.dataSource.options, { logging: ['query'] });
      let list: Json[];
      try {
        list = await findings(query);
      } finally {
        logger.logQuery = original;
        Object.assign(t.dataSource.options, { logging: false });
      }
      const statement = queries.find(({ sql }) => pattern.test(sql));
      expect(statement).toBeDefined();
      return { statement: statement!, list };
    }

    /**
     * The plan of a statement, a line per step. A store this small is cheaper to scan and sort:
     * on PostgreSQL the planner is told not to, to show which order the indexes give.
     */
    async function planOf({ sql, parameters }: { sql: string; parameters: unknown[] }) {
      if (!testingPostgres()) {
        const plan = await t.dataSource.query<{ detail: string }[]>(
          `EXPLAIN QUERY PLAN ${sql}`,
          parameters,
        );
        return plan.map((row) => row.detail);
      }
      const runner = t.dataSource.createQueryRunner();
      try {
        await runner.startTransaction();
        await runner.query('SET LOCAL enable_seqscan = off');
        await runner.query('SET LOCAL enable_sort = off');
        const plan: { 'QUERY PLAN': string }[] = await runner.query(`EXPLAIN ${sql}`, parameters);
        await runner.rollbackTransaction();
        return plan.map((row) => row['QUERY PLAN']);
      } finally {
        await runner.release();
      }
    }

    it('reads the fixed findings, last fixed first, through their index without sorting them', async () => {
      await fixture();
      const { statement, list } = await statementOf(
        '?status=fixed&sort=-fixedAt&limit=500',
        /ORDER BY fixed_at DESC/,
      );
      expect(list).toHaveLength(1);
      const plan = (await planOf(statement)).join('\n');
      expect(plan).toContain('IDX_findings_fixed');
      expect(plan).not.toMatch(testingPostgres() ? /Sort/ : /TEMP B-TREE/);
    });

    it('pages several statuses and severities in the list order, reading the index once for each', async () => {
      // Seven vulnerabilities on each of four assets: scores tie across assets and within one.
      const scores = [9.8, 9.1, 9.1, 8, 7, 5, null];
      await ok('POST', INGEST, {
        options: { source: 'scan-1' },
        assets: ['h0', 'h1', 'h2', 'h3'].map((id) => ({
          id,
          name: id,
          vulnerabilities: scores.map((score, i) =>
            score === null ? { id: `CVE-${i}` } : { id: `CVE-${i}`, score },
          ),
        })),
      });
      const all = await findings('?limit=1000');
      const byKey = new Map(
        all.map((finding) => [`${finding.vulnId}@${finding.assetId}`, finding]),
      );
      const idOf = (key: string) => byKey.get(key)!.id as string;
      // Accepted until later; accepted until a time now past (shown as open); false positives.
      await triage(idOf('CVE-1@h0'), { status: 'accepted', reason: 'r', acceptedUntil: inDays(5) });
      await triage(idOf('CVE-0@h2'), { status: 'accepted', reason: 'r', acceptedUntil: inDays(5) });
      await setFinding(idOf('CVE-0@h2'), { acceptedUntil: new Date(Date.now() - 1000) });
      await triage(idOf('CVE-3@h1'), { status: 'false_positive', reason: 'r' });
      await triage(idOf('CVE-0@h3'), { status: 'false_positive', reason: 'r' });

      const shown = await findings('?limit=1000');
      expect(shown.find((finding) => finding.id === idOf('CVE-0@h2'))!.status).toBe('open');
      /** The findings a query keeps, in the list's order, from the whole list. */
      const expected = (statuses: string[], severities: string[], descending: boolean) =>
        shown
          .filter((f) => statuses.includes(f.status) && severities.includes(f.severity))
          .sort(
            (a, b) =>
              (a.score === null ? 1 : 0) - (b.score === null ? 1 : 0) ||
              (descending ? b.score - a.score : a.score - b.score) ||
              (a.id < b.id ? -1 : 1),
          )
          .map((finding) => finding.id as string);
      for (const [statuses, severities, descending] of [
        [['open'], ['critical', 'high'], true],
        [['open'], ['critical', 'high'], false],
        [['open', 'accepted'], ['critical', 'high', 'none'], true],
        [['accepted', 'false_positive'], ['critical', 'medium'], true],
        [['open'], ['critical'], true],
      ] as const) {
        const want = expected([...statuses], [...severities], descending);
        expect(want.length).toBeGreaterThan(1);
        const query = `?status=${statuses.join(',')}&severity=${severities.join(',')}&sort=${descending ? '-' : ''}score`;
        // Three to a page, from each offset: every row once, in order.
        for (let offset = 0; offset <= want.length; offset += 3) {
          const { list, total } = await page(`/api/findings${query}&limit=3&offset=${offset}`);
          expect([query, offset, total, list.map((f) => f.id)]).toEqual([
            query,
            offset,
            want.length,
            want.slice(offset, offset + 3),
          ]);
        }
      }

      // The open critical and high findings (an expired acceptance among them): a walk of the
      // index for each stored status and severity, merged; only the rows the walks give are
      // sorted (SQLite sorts each walk's few as it merges them), never the findings they keep.
      const { statement, list } = await statementOf(
        '?status=open&severity=critical,high&sort=-score&limit=5',
        /ORDER BY score DESC/,
      );
      expect(list.map((finding) => finding.id)).toEqual(
        expected(['open'], ['critical', 'high'], true).slice(0, 5),
      );
      const plan = await planOf(statement);
      const where = plan.join('\n');
      const walks = plan.filter((line) => line.includes('IDX_findings_status_score'));
      expect([walks.length, where]).toEqual([4, where]);
      if (testingPostgres()) expect(where).not.toMatch(/\bSort\s+\(cost/);
      else
        plan.forEach((line, i) => {
          if (line.includes('TEMP B-TREE'))
            expect([plan[i - 1], where]).toEqual([expect.stringMatching(/^SCAN walk\d+$/), where]);
        });
    });

    it('tells overdue findings by their severity and opening (a reopening counts from then)', async () => {
      const { ids, names } = await fixture();
      const now = Date.now();
      // Critical is due 15 days after its opening, high 30: A on web is overdue, C is not.
      await setFinding(ids['CVE-A@web'], { firstSeenAt: new Date(now - 20 * DAY_MS) });
      await setFinding(ids['CVE-C@db'], { firstSeenAt: new Date(now - 20 * DAY_MS) });
      // Severity none is never due; a fixed finding is never overdue.
      await setFinding(ids['CVE-N@web'], { firstSeenAt: new Date(now - 1000 * DAY_MS) });
      await setFinding(ids['CVE-B@web'], { firstSeenAt: new Date(now - 1000 * DAY_MS) });
      // Reopened 2 days ago: due 15 days after that, whenever it was first seen.
      await setFinding(ids['CVE-A@db'], {
        firstSeenAt: new Date(now - 100 * DAY_MS),
        reopenedAt: new Date(now - 2 * DAY_MS),
      });
      const overdue = await page('/api/findings?overdue=true');
      expect([overdue.total, keys(overdue.list, names)]).toEqual([1, ['CVE-A@web']]);
      expect(overdue.list[0]).toMatchObject({ overdue: true, status: 'open' });
      expect(Date.parse(overdue.list[0].dueAt)).toBe(
        Date.parse(overdue.list[0].firstSeenAt) + 15 * DAY_MS,
      );
      const reopened = (await findings(`?vulnId=CVE-A&assetId=db`))[0];
      expect(Date.parse(reopened.dueAt)).toBe(Date.parse(reopened.reopenedAt) + 15 * DAY_MS);
      expect(reopened.overdue).toBe(false);
      expect(keys(await findings('?overdue=false'), names)).not.toContain('CVE-A@web');
      expect((await page('/api/findings?overdue=false')).total).toBe(5);
      expect((await summary()).overdue).toEqual({ ...NO_COUNTS, critical: 1 });
      expect((await summary('?severity=high')).overdue).toEqual(NO_COUNTS);
    });

    it('refuses unknown and invalid query parameters, naming them', async () => {
      for (const [query, pattern] of [
        ['status=bogus', /^status .*"bogus"/],
        ['status=open,', /^status /],
        ['severity=severe', /^severity .*"severe"/],
        ['severity=HIGH', /^severity /],
        ['limit=0', /^limit /],
        ['limit=1001', /^limit /],
        ['offset=-1', /^offset /],
        ['minScore=10.5', /^minScore /],
        ['minScore=-1', /^minScore /],
        ['minScore=1e1', /^minScore /],
        ['overdue=yes', /^overdue /],
        ['sort=name', /^sort /],
        ['sort=--score', /^sort /],
        ['status=open&status=fixed', /^status /],
        ['search=x', /^search is not an accepted property/],
        ['days=3', /^days is not an accepted property/],
      ] as const) {
        const response = await t.request('GET', `/api/findings?${query}`, { token: viewer });
        expect([query, response.status]).toEqual([query, 400]);
        expectErrorBody(response, pattern);
      }
      const unauthenticated = await t.request('GET', '/api/findings');
      expect(unauthenticated.status).toBe(401);
    });
  });

  describe('GET /api/findings/:id and /api/assets/:id/findings', () => {
    it('answers one finding, or 404', async () => {
      const { ids } = await fixture();
      const one = await ok('GET', `/api/findings/${ids['CVE-C@db']}`, undefined, viewer);
      expect(one).toMatchObject({ id: ids['CVE-C@db'], vulnId: 'CVE-C', assetId: 'db' });
      const missing = await t.request('GET', '/api/findings/no-such-finding', { token: viewer });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ error: 'finding no-such-finding not found' });
    });

    it("lists an asset's findings with the list's query but assetId; 404 for an unknown asset", async () => {
      const { names, webId } = await fixture();
      const web = await page(`/api/assets/${webId}/findings`);
      expect([web.total, keys(web.list, names)]).toEqual([
        3,
        ['CVE-A@web', 'CVE-B@web', 'CVE-N@web'],
      ]);
      const open = await page(`/api/assets/db/findings?minScore=5&sort=score`);
      expect(keys(open.list, names)).toEqual(['CVE-C@db', 'CVE-A@db']);
      const bare = await ok('POST', '/api/assets', { name: 'bare' });
      expect(await page(`/api/assets/${bare.id}/findings`)).toEqual({ list: [], total: 0 });
      const unknown = await t.request('GET', '/api/assets/nope/findings', { token: viewer });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: 'asset nope not found' });
      const withAssetId = await t.request('GET', `/api/assets/db/findings?assetId=db`, {
        token: viewer,
      });
      expect(withAssetId.status).toBe(400);
      expectErrorBody(withAssetId, /^assetId is not an accepted property$/);
    });
  });

  describe('GET /api/findings/summary', () => {
    it('counts open findings by severity, the other statuses, and the last 30 days', async () => {
      const { ids } = await fixture();
      expect(await summary()).toEqual({
        open: { critical: 2, high: 1, medium: 0, low: 1, none: 1 },
        overdue: NO_COUNTS,
        accepted: 0,
        falsePositive: 0,
        fixed: 1,
        openedLast30Days: 6,
        fixedLast30Days: 1,
      });
      await triage(ids['CVE-L@db'], { status: 'false_positive', reason: 'not reachable' });
      await triage(ids['CVE-C@db'], {
        status: 'accepted',
        reason: 'compensating control',
        acceptedUntil: inDays(10),
      });
      // Seen first long ago, fixed long ago: out of the last 30 days.
      await setFinding(ids['CVE-A@web'], { firstSeenAt: new Date(Date.now() - 40 * DAY_MS) });
      await setFinding(ids['CVE-B@web'], { fixedAt: new Date(Date.now() - 31 * DAY_MS) });
      expect(await summary()).toEqual({
        open: { critical: 2, high: 0, medium: 0, low: 0, none: 1 },
        overdue: { ...NO_COUNTS, critical: 1 },
        accepted: 1,
        falsePositive: 1,
        fixed: 1,
        openedLast30Days: 5,
        fixedLast30Days: 0,
      });
      // The list's filters apply.
      expect(await summary('?site=lyon&status=open,accepted')).toEqual({
        open: { ...NO_COUNTS, critical: 1 },
        overdue: NO_COUNTS,
        accepted: 1,
        falsePositive: 0,
        fixed: 0,
        openedLast30Days: 2,
        fixedLast30Days: 0,
      });
      const paged = await t.request('GET', '/api/findings/summary?limit=10', { token: viewer });
      expect(paged.status).toBe(400);
      expectErrorBody(paged, /^limit is not an accepted property$/);
      const sorted = await t.request('GET', '/api/findings/summary?sort=score', { token: viewer });
      expect(sorted.status).toBe(400);
    });
  });

  describe('GET /api/findings/trend', () => {
    it('answers one entry per UTC day, oldest first, today last', async () => {
      const entries = await trend();
      expect(entries).toHaveLength(90);
      for (let i = 1; i < entries.length; i++) {
        expect(Date.parse(entries[i].date) - Date.parse(entries[i - 1].date)).toBe(DAY_MS);
      }
      expect(entries.every((entry) => Object.keys(entry).join() === 'date,open')).toBe(true);
      expect(entries[0].open).toEqual(NO_COUNTS);
      expect(await trend('?days=1')).toEqual([{ date: expect.any(String), open: NO_COUNTS }]);
      expect(await trend('?days=366')).toHaveLength(366);
      for (const query of ['days=0', 'days=367', 'days=x', 'limit=5']) {
        const response = await t.request('GET', `/api/findings/trend?${query}`, { token: viewer });
        expect([query, response.status]).toEqual([query, 400]);
        expectErrorBody(response);
      }
    });

    it('counts the findings open or accepted at the end of each day, from their periods', async () => {
      const { ids } = await fixture();
      // Open or accepted now: A twice, C, L, N (B is fixed).
      let entries = await trend('?days=10');
      expect(entries[9].open).toEqual({ critical: 2, high: 1, medium: 0, low: 1, none: 1 });
      expect(entries[0].open).toEqual(NO_COUNTS);
      // Accepted still counts; a false positive does not.
      await triage(ids['CVE-C@db'], { status: 'accepted', reason: 'r', acceptedUntil: inDays(5) });
      await triage(ids['CVE-L@db'], { status: 'false_positive', reason: 'r' });
      entries = await trend('?days=10');
      expect(entries[9].open).toEqual({ critical: 2, high: 1, medium: 0, low: 0, none: 1 });

      // Each finding's one period moved into the past (days before today, at noon), so that
      // every day of the window has its own count.
      const now = Date.now();
      const periods: [key: string, severity: string, opened: Date, closed: Date | null][] = [
        ['CVE-N@web', 'none', new Date(now - 400 * DAY_MS), null],
        ['CVE-L@db', 'low', noonDaysBefore(now, 9), noonDaysBefore(now, 8)],
        ['CVE-B@web', 'medium', noonDaysBefore(now, 7), noonDaysBefore(now, 3)],
        ['CVE-A@web', 'critical', noonDaysBefore(now, 5), null],
        ['CVE-A@db', 'critical', noonDaysBefore(now, 2), null],
        ['CVE-C@db', 'high', noonDaysBefore(now, 1), null],
      ];
      for (const [key, , opened, closed] of periods) await setPeriod(t, ids[key], opened, closed);
      /** What an entry should count: the periods open at the end of its day. */
      const expected = (date: string, keep = (_key: string) => true) => {
        const counts: Record<string, number> = { ...NO_COUNTS };
        for (const [key, severity, opened, closed] of periods) {
          if (keep(key) && date >= dayOf(opened) && (closed === null || date < dayOf(closed)))
            counts[severity] += 1;
        }
        return counts;
      };
      // Windows that start before, inside and after the periods' spans.
      for (const days of [10, 9, 5, 1]) {
        entries = await trend(`?days=${days}`);
        expect(entries).toHaveLength(days);
        for (const entry of entries)
          expect([days, entry.date, entry.open]).toEqual([days, entry.date, expected(entry.date)]);
      }
      // The summary's filters apply, on the findings as they are now.
      const paris = await trend('?days=10&site=paris&severity=critical,medium');
      for (const entry of paris) {
        expect([entry.date, entry.open]).toEqual([
          entry.date,
          expected(entry.date, (key) => ['CVE-A@web', 'CVE-B@web'].includes(key)),
        ]);
      }
      const fixed = await trend('?days=10&status=fixed');
      for (const entry of fixed) {
        expect([entry.date, entry.open]).toEqual([
          entry.date,
          expected(entry.date, (key) => key === 'CVE-B@web'),
        ]);
      }
    });
  });

  describe('PATCH /api/findings/:id', () => {
    it('refuses bodies that break the rules of the status, with 400', async () => {
      const { ids } = await fixture();
      const id = ids['CVE-C@db'];
      for (const body of [
        {},
        { status: 'fixed' },
        { status: 'bogus' },
        { status: 'false_positive' },
        { status: 'false_positive', reason: '' },
        { status: 'false_positive', reason: 'x'.repeat(1001) },
        { status: 'false_positive', reason: null },
        { status: 'false_positive', reason: 'r', acceptedUntil: inDays(1) },
        { status: 'accepted', reason: 'r' },
        { status: 'accepted', acceptedUntil: inDays(1) },
        { status: 'accepted', reason: 'r', acceptedUntil: inDays(-1) },
        { status: 'accepted', reason: 'r', acceptedUntil: inDays(367) },
        { status: 'accepted', reason: 'r', acceptedUntil: 'next week' },
        { status: 'accepted', reason: 'r', acceptedUntil: null },
        { status: 'open', reason: 'r' },
        { status: 'open', acceptedUntil: inDays(1) },
        { status: 'open', reason: null },
        { status: 'open', note: 'r' },
        { status: 'false_positive', reason: 'r', triagedBy: 'me' },
      ]) {
        const response = await patch(id, body);
        expect([body, response.status]).toEqual([body, 400]);
        expectErrorBody(response);
      }
      expectErrorBody(await patch(id, { status: 'open', note: 'r' }), /^note is not an accepted/);
      expectErrorBody(await patch(id, { status: 'false_positive' }), /^reason /);
      expectErrorBody(
        await patch(id, { status: 'accepted', reason: 'r', acceptedUntil: inDays(400) }),
        /^acceptedUntil .*366 days/,
      );
      const plain = await t.request('PATCH', `/api/findings/${id}`, {
        token: editor,
        rawBody: 'status=open',
        headers: { 'content-type': 'text/plain' },
      });
      expect(plain.status).toBe(415);
      expectErrorBody(plain);
      // Nothing was written.
      expect(await ok('GET', `/api/findings/${id}`)).toMatchObject({
        status: 'open',
        reason: null,
        triagedBy: null,
      });
    });

    it('is 403 for a viewer, 404 for an unknown id, 409 for a fixed finding', async () => {
      const { ids } = await fixture();
      const body = { status: 'false_positive', reason: 'r' };
      const viewed = await patch(ids['CVE-C@db'], body, viewer);
      expect(viewed.status).toBe(403);
      expectErrorBody(viewed);
      const unknown = await patch('no-such-finding', body);
      expect([unknown.status, unknown.body]).toEqual([
        404,
        { error: 'finding no-such-finding not found' },
      ]);
      const fixed = await patch(ids['CVE-B@web'], body);
      expect(fixed.status).toBe(409);
      expectErrorBody(fixed, /fixed/);
      expect((await ok('GET', `/api/findings/${ids['CVE-B@web']}`)).status).toBe('fixed');
    });

    it('accepts a risk until a time, as the caller; it reads as open once that time is past', async () => {
      const { ids, webId } = await fixture();
      const id = ids['CVE-A@web'];
      const until = inDays(10);
      const accepted = await triage(id, {
        status: 'accepted',
        reason: 'patch window',
        acceptedUntil: until,
      });
      expect(accepted).toMatchObject({
        id,
        status: 'accepted',
        reason: 'patch window',
        acceptedUntil: until,
        triagedBy: {
          userId: editorUser.id,
          email: editorUser.email,
          apiKeyId: null,
          apiKeyPrefix: null,
        },
        overdue: false,
      });
      expect(await ok('GET', `/api/findings/${id}`, undefined, viewer)).toEqual(accepted);
      // Still listed as the asset's vulnerability.
      const asset = await ok('GET', `/api/assets/${webId}`);
      expect(asset.vulnerabilities.map((v: Json) => v.id)).toEqual(['CVE-A', 'CVE-N']);
      expect((await findings('?status=accepted')).map((f) => f.id)).toEqual([id]);
      expect((await findings('?status=open')).map((f) => f.id)).not.toContain(id);

      // Its acceptance ends (written to the database: a test cannot wait 10 days), long after
      // it was due: open again, overdue, its reason kept.
      await setFinding(id, {
        acceptedUntil: new Date(Date.now() - 1000),
        firstSeenAt: new Date(Date.now() - 20 * DAY_MS),
      });
      const expired = await ok('GET', `/api/findings/${id}`, undefined, viewer);
      expect(expired).toMatchObject({
        status: 'open',
        reason: 'patch window',
        acceptedUntil: null,
        overdue: true,
      });
      expect((await findings('?status=open')).map((f) => f.id)).toContain(id);
      expect(await findings('?status=accepted')).toEqual([]);
      expect((await findings('?overdue=true')).map((f) => f.id)).toEqual([id]);
      const counted = await summary();
      expect([counted.accepted, counted.open.critical, counted.overdue.critical]).toEqual([
        0, 2, 1,
      ]);
    });

    it('keeps a triage when the same feed reports the finding again', async () => {
      const { ids } = await fixture();
      await triage(ids['CVE-A@db'], { status: 'false_positive', reason: 'wrong banner' });
      await triage(ids['CVE-C@db'], {
        status: 'accepted',
        reason: 'isolated',
        acceptedUntil: inDays(30),
      });
      // The feed's next scan reports both again (and L), at other scores.
      await ok('POST', INGEST, {
        options: { source: 'scan-1' },
        assets: [
          {
            id: 'db',
            name: 'db',
            vulnerabilities: [
              { id: 'CVE-A', score: 9.9 },
              { id: 'CVE-C', score: 7.6 },
              { id: 'CVE-L', score: 2 },
            ],
          },
        ],
      });
      expect(await ok('GET', `/api/findings/${ids['CVE-A@db']}`)).toMatchObject({
        status: 'false_positive',
        reason: 'wrong banner',
        score: 9.9,
        triagedBy: { userId: editorUser.id },
      });
      expect(await ok('GET', `/api/findings/${ids['CVE-C@db']}`)).toMatchObject({
        status: 'accepted',
        reason: 'isolated',
        score: 7.6,
      });
      // A false positive is not among the asset's vulnerabilities; an accepted one is.
      const db = await ok('GET', '/api/assets/db');
      expect(db.vulnerabilities.map((v: Json) => v.id)).toEqual(['CVE-C', 'CVE-L']);
    });

    it('undoes a triage with open, and records every change of it', async () => {
      const { ids } = await fixture();
      const id = ids['CVE-C@db'];
      const key = await ok('POST', '/api/auth/api-keys', { name: 'triage bot' });
      const fp = await triage(id, { status: 'false_positive', reason: 'scanner bug' }, key.key);
      expect(fp.triagedBy).toEqual({
        userId: editorUser.id,
        email: editorUser.email,
        apiKeyId: key.id,
        apiKeyPrefix: key.prefix,
      });
      // The asset's own creation record (an ingestion's, kept without a copy) keeps showing the
      // finding among its vulnerabilities, as created.
      const assetCreated = (await page('/api/assets/db/changes')).list.find(
        (record) => record.action === 'create',
      );
      expect(assetCreated!.after.vulnerabilities.map((v: Json) => v.id)).toEqual([
        'CVE-A',
        'CVE-C',
        'CVE-L',
      ]);
      expect((await ok('GET', '/api/assets/db')).vulnerabilities.map((v: Json) => v.id)).toEqual([
        'CVE-A',
        'CVE-L',
      ]);
      const opened = await triage(id, { status: 'open' });
      expect(opened).toMatchObject({
        status: 'open',
        reason: null,
        acceptedUntil: null,
        triagedBy: null,
      });
      expect((await ok('GET', '/api/assets/db')).vulnerabilities.map((v: Json) => v.id)).toContain(
        'CVE-C',
      );
      // The same again changes nothing, and records nothing.
      await triage(id, { status: 'open' });

      const records = (await page(`/api/changes?objectType=finding&objectId=${id}`, admin)).list;
      expect(records.map((record) => record.action)).toEqual(['update', 'update', 'create']);
      const [undone, judged, created] = records;
      expect(judged).toMatchObject({
        objectType: 'finding',
        objectId: id,
        actor: { userId: editorUser.id, apiKeyId: key.id },
        runId: null,
        before: { status: 'open', reason: null, triagedBy: null },
        after: {
          status: 'false_positive',
          reason: 'scanner bug',
          triagedBy: { userId: editorUser.id, apiKeyId: key.id },
        },
      });
      expect(Object.keys(judged.after).sort()).toEqual(['reason', 'status', 'triagedBy']);
      expect(undone).toMatchObject({
        actor: { userId: editorUser.id, apiKeyId: null },
        before: { status: 'false_positive', reason: 'scanner bug' },
        after: { status: 'open', reason: null, triagedBy: null },
      });
      // The ingestion's creation record shows the finding as created, not as triaged since.
      expect(created.after).toMatchObject({
        id,
        status: 'open',
        reason: null,
        triagedBy: null,
        sources: ['scan-1'],
      });
    });
  });
});

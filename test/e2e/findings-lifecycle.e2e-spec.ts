import { describe, expect, it } from '@jest/globals';
import { storeRows, useIngestionApp } from '../support/ingest-helpers.js';
import { expectErrorBody, TestApp } from '../support/test-app.js';

type Finding = Record<string, any>;

/**
 * A finding's life through the writes that list an asset's vulnerabilities (section 16 of the
 * contract): opened, seen again, fixed, reopened; per-feed provenance; triage kept through
 * later scans; maxFixes; dry runs; history.
 */
describe('findings through ingestion and the asset routes', () => {
  let t: TestApp;
  let admin: string;
  let editor: string;

  useIngestionApp((app) => ({ t, admin, editor } = app), { emptyEach: true });

  const post = (body: object, token = editor) =>
    t.request('POST', '/api/integrations/ingest', { token, body });
  const ingest = async (body: object, token = editor) => {
    const response = await post(body, token);
    expect(response.status).toBe(200);
    return response.body;
  };
  /** A feed's scan of one asset, listing these vulnerabilities (ids, score 9.8 unless given). */
  const scan = (source: string | null, assetId: string, vulnIds: (string | [string, number])[]) =>
    ingest({
      options: source === null ? {} : { source },
      assets: [
        {
          id: assetId,
          name: assetId,
          vulnerabilities: vulnIds.map((entry) =>
            typeof entry === 'string'
              ? { id: entry, score: 9.8 }
              : { id: entry[0], score: entry[1] },
          ),
        },
      ],
    });
  const findingsOf = async (assetId: string): Promise<Finding[]> => {
    const response = await t.request('GET', `/api/assets/${assetId}/findings?sort=firstSeenAt`, {
      token: editor,
    });
    expect(response.status).toBe(200);
    return response.body;
  };
  const findingOf = async (assetId: string, vulnId: string): Promise<Finding> =>
    (await findingsOf(assetId)).find((finding) => finding.vulnId === vulnId)!;
  const listed = async (assetId: string): Promise<string[]> => {
    const response = await t.request('GET', `/api/assets/${assetId}`, { token: editor });
    return response.body.vulnerabilities.map((entry: { id: string }) => entry.id);
  };
  const triage = (id: string, body: object) =>
    t.request('PATCH', `/api/findings/${id}`, { token: editor, body });
  const recordsOf = async (findingId: string) => {
    const response = await t.request(
      'GET',
      `/api/changes?objectType=finding&objectId=${findingId}`,
      { token: admin },
    );
    expect(response.status).toBe(200);
    return response.body as Finding[];
  };

  it('opens a finding at its first report, and moves only its sighting when it is seen again', async () => {
    const first = await scan('nmap', 'web', ['CVE-1']);
    expect(first.stats).toMatchObject({ findingsOpened: 1, findingsReopened: 0, findingsFixed: 0 });
    expect(first.changes.findings).toEqual({
      opened: [{ assetId: 'web', vulnId: 'CVE-1' }],
      reopened: [],
      fixed: [],
    });
    const opened = await findingOf('web', 'CVE-1');
    expect(opened).toMatchObject({
      assetId: 'web',
      vulnId: 'CVE-1',
      score: 9.8,
      severity: 'critical',
      status: 'open',
      sources: ['nmap'],
      fixedAt: null,
      reopenedAt: null,
      reopenCount: 0,
      reason: null,
      acceptedUntil: null,
      triagedBy: null,
      overdue: false,
    });
    expect(opened.lastSeenAt).toBe(opened.firstSeenAt);

    const again = await scan('nmap', 'web', ['CVE-1']);
    expect(again.stats).toMatchObject({ findingsOpened: 0, findingsReopened: 0, findingsFixed: 0 });
    const seen = await findingOf('web', 'CVE-1');
    expect(seen.firstSeenAt).toBe(opened.firstSeenAt);
    expect(seen.lastSeenAt > opened.lastSeenAt).toBe(true);
    // Its creation only: a sighting alone is no change.
    expect((await recordsOf(opened.id)).map((record) => record.action)).toEqual(['create']);
  });

  it('a repeated scan moves the sighting of exactly the findings it lists, whatever else the asset holds', async () => {
    const sightings = async () =>
      Object.fromEntries(
        (await findingsOf('web')).map((finding) => [finding.vulnId, finding.lastSeenAt]),
      );
    const moved = (before: Record<string, string>, after: Record<string, string>) =>
      Object.keys(after)
        .filter((vulnId) => after[vulnId] !== before[vulnId])
        .sort();
    await scan('nmap', 'web', ['CVE-1', ['CVE-2', 7.3]]);
    await scan('qualys', 'web', ['CVE-3']);
    // The asset's `source` is the last feed's again.
    await scan('nmap', 'web', ['CVE-1', ['CVE-2', 7.3]]);
    let before = await sightings();

    // The same list again: unchanged; another feed's finding is not seen by this one.
    const same = await scan('nmap', 'web', [['CVE-2', 7.3], 'CVE-1']);
    expect(same.stats).toMatchObject({ assetsUnchanged: 1, assetsUpdated: 0 });
    let after = await sightings();
    expect(moved(before, after)).toEqual(['CVE-1', 'CVE-2']);

    // A false positive the feed lists is seen; one it no longer lists is not.
    const judged = await findingOf('web', 'CVE-2');
    expect((await triage(judged.id, { status: 'false_positive', reason: 'x' })).status).toBe(200);
    before = after;
    await scan('nmap', 'web', ['CVE-1', ['CVE-2', 7.3]]);
    after = await sightings();
    expect(moved(before, after)).toEqual(['CVE-1', 'CVE-2']);
    for (const run of [1, 2]) {
      before = after;
      const without = await scan('nmap', 'web', ['CVE-1']);
      expect([run, without.stats.findingsFixed]).toEqual([run, 0]);
      after = await sightings();
      expect([run, moved(before, after)]).toEqual([run, ['CVE-1']]);
    }
    expect(await findingOf('web', 'CVE-2')).toMatchObject({ status: 'false_positive' });

    // A value that differs is written, even when nothing else does.
    const rescored = await scan('nmap', 'web', [['CVE-1', 9.9]]);
    expect(rescored.stats).toMatchObject({ assetsUpdated: 1 });
    expect(await findingOf('web', 'CVE-1')).toMatchObject({ score: 9.9 });

    // Without a source a run lists the asset's whole state: the feeds' findings alike.
    before = await sightings();
    await scan(null, 'web', [['CVE-1', 9.9], ['CVE-2', 7.3], 'CVE-3']);
    after = await sightings();
    expect(moved(before, after)).toEqual(['CVE-1', 'CVE-2', 'CVE-3']);
    before = after;
    const again = await scan(null, 'web', [['CVE-1', 9.9], ['CVE-2', 7.3], 'CVE-3']);
    expect(again.stats).toMatchObject({ assetsUnchanged: 1, findingsFixed: 0 });
    expect(moved(before, await sightings())).toEqual(['CVE-1', 'CVE-2', 'CVE-3']);
  });

  it('fixes what the feed no longer reports, and reopens it when reported again', async () => {
    await scan('nmap', 'web', ['CVE-1', 'CVE-2']);
    const fixing = await scan('nmap', 'web', ['CVE-2']);
    expect(fixing.stats).toMatchObject({ findingsFixed: 1, assetsUpdated: 1 });
    expect(fixing.changes.findings.fixed).toEqual([{ assetId: 'web', vulnId: 'CVE-1' }]);
    const fixed = await findingOf('web', 'CVE-1');
    expect(fixed).toMatchObject({ status: 'fixed', sources: [], overdue: false });
    expect(fixed.fixedAt).toEqual(expect.any(String));
    expect(await listed('web')).toEqual(['CVE-2']);

    const reopening = await scan('nmap', 'web', ['CVE-1', 'CVE-2']);
    expect(reopening.stats).toMatchObject({ findingsReopened: 1, findingsOpened: 0 });
    expect(reopening.changes.findings.reopened).toEqual([{ assetId: 'web', vulnId: 'CVE-1' }]);
    const reopened = await findingOf('web', 'CVE-1');
    expect(reopened).toMatchObject({
      status: 'open',
      fixedAt: null,
      reopenCount: 1,
      sources: ['nmap'],
    });
    expect(reopened.reopenedAt > fixed.fixedAt).toBe(true);
    // The due date runs from the reopening.
    expect(Date.parse(reopened.dueAt) - Date.parse(reopened.reopenedAt)).toBe(15 * 86_400_000);
    expect(await listed('web')).toEqual(['CVE-1', 'CVE-2']);

    const records = await recordsOf(reopened.id);
    expect(records.map((record) => [record.action, record.after?.status])).toEqual([
      ['update', 'open'],
      ['update', 'fixed'],
      ['create', 'open'],
    ]);
    expect(records[0]).toMatchObject({
      runId: reopening.runId,
      before: { status: 'fixed', fixedAt: fixed.fixedAt, reopenedAt: null, reopenCount: 0 },
      after: { status: 'open', fixedAt: null, reopenedAt: reopened.reopenedAt, reopenCount: 1 },
    });
  });

  it('fixes with a feed only what that feed alone reported', async () => {
    await scan('nmap', 'web', ['CVE-1', 'CVE-2']);
    await scan('nessus', 'web', ['CVE-1']);
    expect((await findingOf('web', 'CVE-1')).sources).toEqual(['nmap', 'nessus']);

    // nmap stops reporting both: CVE-2 was its alone, CVE-1 nessus still reports.
    const run = await scan('nmap', 'web', []);
    expect(run.stats.findingsFixed).toBe(1);
    expect(await findingOf('web', 'CVE-1')).toMatchObject({ status: 'open', sources: ['nessus'] });
    expect(await findingOf('web', 'CVE-2')).toMatchObject({ status: 'fixed' });

    const last = await scan('nessus', 'web', []);
    expect(last.stats.findingsFixed).toBe(1);
    expect(await findingOf('web', 'CVE-1')).toMatchObject({ status: 'fixed', sources: [] });
  });

  it('keeps the feeds of a finding in the order they joined it, whatever their names', async () => {
    await scan('zmap', 'web', ['CVE-1']);
    await scan('nessus', 'web', ['CVE-1']);
    await scan('openvas', 'web', ['CVE-1']);
    expect((await findingOf('web', 'CVE-1')).sources).toEqual(['zmap', 'nessus', 'openvas']);

    // A feed that leaves and comes back joins at the end.
    await scan('nessus', 'web', []);
    await scan('nessus', 'web', ['CVE-1']);
    await scan('apex', 'web', ['CVE-1']);
    expect((await findingOf('web', 'CVE-1')).sources).toEqual([
      'zmap',
      'openvas',
      'nessus',
      'apex',
    ]);
  });

  it('never lets a feed fix what was entered by hand; a route without a source fixes it', async () => {
    const created = await t.request('POST', '/api/assets', {
      token: editor,
      body: { name: 'db', vulnerabilities: [{ id: 'CVE-7', score: 5 }] },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect(created.body.vulnerabilities).toEqual([
      { id: 'CVE-7', score: 5, summary: null, publishedDate: null },
    ]);
    expect(await findingOf(id, 'CVE-7')).toMatchObject({
      status: 'open',
      sources: [],
      severity: 'medium',
    });

    const run = await ingest({
      options: { source: 'nmap' },
      assets: [{ id, vulnerabilities: [{ id: 'CVE-8', score: 2 }] }],
    });
    expect(run.stats).toMatchObject({ findingsOpened: 1, findingsFixed: 0 });
    expect(await listed(id)).toEqual(['CVE-7', 'CVE-8']);

    // PUT without a source: the list given is the asset's list.
    const put = await t.request('PUT', `/api/assets/${id}`, {
      token: editor,
      body: { vulnerabilities: [{ id: 'CVE-8', score: 2 }] },
    });
    expect(put.status).toBe(200);
    expect(put.body.vulnerabilities.map((entry: { id: string }) => entry.id)).toEqual(['CVE-8']);
    const fixed = await findingOf(id, 'CVE-7');
    expect(fixed.status).toBe('fixed');
    const records = await recordsOf(fixed.id);
    expect(records.map((record) => record.action)).toEqual(['update', 'create']);
    expect(records[1].after).toMatchObject({ vulnId: 'CVE-7', status: 'open', sources: [] });
    expect(records[0].runId).toBeNull();

    // A PUT without the list leaves the findings alone.
    await t.request('PUT', `/api/assets/${id}`, { token: editor, body: { site: 'lab' } });
    expect(await listed(id)).toEqual(['CVE-8']);
  });

  it('keeps a false positive through every later scan, and an acceptance until it is not listed', async () => {
    await scan('nmap', 'web', ['CVE-1', 'CVE-2']);
    const judged = await findingOf('web', 'CVE-1');
    const marked = await triage(judged.id, {
      status: 'false_positive',
      reason: 'the backport fixed it',
    });
    expect(marked.status).toBe(200);
    const until = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const accepted = await findingOf('web', 'CVE-2');
    expect(
      (
        await triage(accepted.id, {
          status: 'accepted',
          reason: 'next window',
          acceptedUntil: until,
        })
      ).status,
    ).toBe(200);
    expect(await listed('web')).toEqual(['CVE-2']);

    const again = await scan('nmap', 'web', ['CVE-1', 'CVE-2']);
    expect(again.stats).toMatchObject({ findingsOpened: 0, findingsReopened: 0, findingsFixed: 0 });
    const kept = await findingOf('web', 'CVE-1');
    expect(kept).toMatchObject({ status: 'false_positive', reason: 'the backport fixed it' });
    expect(kept.lastSeenAt > judged.lastSeenAt).toBe(true);
    expect(await findingOf('web', 'CVE-2')).toMatchObject({
      status: 'accepted',
      acceptedUntil: until,
    });

    // Not listed: the acceptance is fixed, the false positive stays.
    const gone = await scan('nmap', 'web', []);
    expect(gone.stats.findingsFixed).toBe(1);
    expect(gone.changes.findings.fixed).toEqual([{ assetId: 'web', vulnId: 'CVE-2' }]);
    expect(await findingOf('web', 'CVE-1')).toMatchObject({ status: 'false_positive' });
    expect(await findingOf('web', 'CVE-2')).toMatchObject({ status: 'fixed', acceptedUntil: null });
  });

  it('refuses a run that would fix more than maxFixes, whole, also dry', async () => {
    await ingest({
      options: { source: 'nmap' },
      assets: [
        { id: 'a', name: 'a', vulnerabilities: [{ id: 'CVE-1' }, { id: 'CVE-2' }] },
        { id: 'b', name: 'b', vulnerabilities: [{ id: 'CVE-3' }] },
      ],
    });
    const before = await storeRows(t.dataSource);
    const empty = {
      assets: [
        { id: 'a', vulnerabilities: [] },
        { id: 'b', vulnerabilities: [] },
      ],
    };
    for (const dryRun of [false, true]) {
      const refused = await post({ ...empty, options: { source: 'nmap', maxFixes: 2, dryRun } });
      expect(refused.status).toBe(409);
      expectErrorBody(refused, /^this ingestion would fix 3 findings, more than maxFixes 2$/);
    }
    expect(await storeRows(t.dataSource)).toBe(before);
    const allowed = await ingest({ ...empty, options: { source: 'nmap', maxFixes: 3 } });
    expect(allowed.stats.findingsFixed).toBe(3);

    const bad = await post({ ...empty, options: { maxFixes: -1 } });
    expect(bad.status).toBe(400);
    expectErrorBody(bad, /^options\.maxFixes /);
    const query = await t.request('POST', '/api/integrations/ingest?maxFixes=x', {
      token: editor,
      headers: { 'content-type': 'text/csv' },
      rawBody: 'name\nx\n',
    });
    expect(query.status).toBe(400);
    expectErrorBody(query, /^maxFixes /);
  });

  it('answers a dry run as the real run, writing nothing', async () => {
    await scan('nmap', 'web', ['CVE-1', 'CVE-2']);
    await scan('nmap', 'web', ['CVE-2']);
    const before = await storeRows(t.dataSource);
    const next = {
      options: { source: 'nmap' },
      assets: [{ id: 'web', vulnerabilities: [{ id: 'CVE-1' }, { id: 'CVE-3' }] }],
    };
    const dry = await ingest({ ...next, options: { ...next.options, dryRun: true } });
    expect(await storeRows(t.dataSource)).toBe(before);
    const real = await ingest(next);
    expect({ ...dry.stats, duration: null }).toEqual({ ...real.stats, duration: null });
    expect(dry.changes.findings).toEqual(real.changes.findings);
    expect(real.changes.findings).toEqual({
      opened: [{ assetId: 'web', vulnId: 'CVE-3' }],
      reopened: [{ assetId: 'web', vulnId: 'CVE-1' }],
      fixed: [{ assetId: 'web', vulnId: 'CVE-2' }],
    });
  });

  it('lists at most 100 entries of each findings list, the stats counting all', async () => {
    const vulnerabilities = Array.from({ length: 150 }, (_, index) => ({ id: `CVE-${index}` }));
    const run = await ingest({ assets: [{ id: 'big', name: 'big', vulnerabilities }] });
    expect(run.stats.findingsOpened).toBe(150);
    expect(run.changes.findings.opened).toHaveLength(100);
    expect(run.changes.findings.opened[0]).toEqual({ assetId: 'big', vulnId: 'CVE-0' });
    expect(run.changes.truncated).toBe(true);
  });

  it("deletes an asset's findings with it; their records stay", async () => {
    await scan('nmap', 'web', ['CVE-1']);
    const finding = await findingOf('web', 'CVE-1');
    const deleted = await t.request('DELETE', '/api/assets/web', { token: editor });
    expect(deleted.status).toBe(204);
    expect((await t.request('GET', `/api/findings/${finding.id}`, { token: editor })).status).toBe(
      404,
    );
    const records = await recordsOf(finding.id);
    expect(records.map((record) => record.action)).toEqual(['create']);
    // The finding as stored: without what the clock derives.
    const stored = { ...finding };
    delete stored.dueAt;
    delete stored.overdue;
    expect(records[0].after).toEqual(stored);
  });
});

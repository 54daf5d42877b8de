import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page, type Request } from 'playwright-core';
import { Feed } from '../../src/database/entities/feed.entity.js';
import { IngestionRun } from '../../src/database/entities/ingestion-run.entity.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, TestApp } from '../support/test-app.js';
import { startWithOidcProvider } from '../support/oidc-provider.js';
import { eventually, WebhookReceiver } from '../support/webhook-receiver.js';
import { describeIfAvailable } from '../support/requirements.js';

/**
 * The browser UI end to end, in Debian's Chromium driven by playwright-core, against the real
 * service: sign in, search, open and edit an asset, draw and save a diagram, see an ingestion
 * run. It takes the README's screenshots and measures the figures `npm run bench` reports.
 */
// page.evaluate's callbacks run in the page: the browser globals they use, loosely typed here
// (the tests are compiled with Node's types, not the DOM's).
declare const window: any;
declare const document: any;
declare const sessionStorage: any;
declare const localStorage: any;
declare function requestAnimationFrame(callback: (now: number) => void): number;

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WEB_ROOT = `${ROOT}web/dist/`;
const SCREENSHOTS = `${ROOT}docs/screenshots/`;
const FIGURES = `${ROOT}bench/results/ui-browser.json`;
// Debian's Chromium and its flags, shared with the bench's ui stage. Without the
// background-networking flags Chromium tries the closed network at every start.
const { executablePath: CHROMIUM, args: CHROMIUM_FLAGS } = JSON.parse(
  readFileSync(`${ROOT}test/browser/chromium.json`, 'utf8'),
) as { executablePath: string; args: string[] };
const MAP_NODES = 5000;
const STEP_TIMEOUT = 120_000;

const describeWithChromium = await describeIfAvailable({ commands: ['chromium'] });

function seedPayload() {
  return {
    options: { source: 'nmap-dmz' },
    assets: [
      {
        id: 'web-1',
        name: 'web-frontend-1',
        ip: '10.0.1.10',
        type: 'server',
        vendor: 'Dell',
        site: 'paris',
        risk_score: 82,
        services: [
          { port: 443, protocol: 'tcp', name: 'https', product: 'nginx', version: '1.25' },
          { port: 22, protocol: 'tcp', name: 'ssh' },
        ],
        vulnerabilities: [
          { id: 'CVE-2024-0001', score: 5.3, summary: 'Information disclosure' },
          { id: 'CVE-2024-0002', score: 9.8, summary: 'Remote code execution' },
          { id: 'CVE-2024-0003', score: 7.5, summary: 'Denial of service' },
        ],
      },
      {
        id: 'db-1',
        name: 'orders-db',
        ip: '10.0.2.20',
        type: 'database',
        site: 'paris',
        risk_score: 45,
      },
      {
        id: 'fw-1',
        name: 'edge-firewall',
        ip: '10.0.0.1',
        type: 'firewall',
        site: 'paris',
        risk_score: 12,
      },
      { id: 'ws-1', name: 'workstation-ana', ip: '10.0.9.31', type: 'workstation', site: 'lyon' },
    ],
    relations: [
      {
        sourceAssetId: 'fw-1',
        targetAssetId: 'web-1',
        type: 'network',
        direction: 'mono',
        protocol: 'tcp',
        toPorts: '443',
      },
      {
        sourceAssetId: 'web-1',
        targetAssetId: 'db-1',
        type: 'network',
        direction: 'mono',
        protocol: 'tcp',
        toPorts: '5432',
      },
      { sourceAssetId: 'ws-1', targetAssetId: 'fw-1', type: 'network', direction: 'bi' },
    ],
  };
}

/** Many assets in a ring of small stars, for the map's frame times. */
function bulkPayload(count: number) {
  const assets = Array.from({ length: count }, (_, i) => ({
    id: `bulk-${i}`,
    name: `bulk-host-${i}`,
    ip: `10.${100 + Math.floor(i / 65536)}.${Math.floor(i / 256) % 256}.${i % 256}`,
    type: i % 10 === 0 ? 'switch' : 'server',
    site: `site-${i % 7}`,
    risk_score: (i * 37) % 101,
  }));
  const relations = assets.slice(1).map((asset, i) => ({
    sourceAssetId: `bulk-${i % 10 === 0 ? i : i - (i % 10)}`,
    targetAssetId: asset.id,
    type: 'network',
    direction: i % 3 === 0 ? 'mono' : 'bi',
    protocol: 'tcp',
    toPorts: '443',
  }));
  return { options: { source: 'bulk' }, assets, relations };
}

describeWithChromium('the browser UI in Chromium', () => {
  let t: TestApp;
  let token: string;
  let browser: Browser;
  let page: Page;
  const violations: string[] = [];
  const figures: Record<string, unknown> = {};

  beforeAll(async () => {
    if (!existsSync(`${WEB_ROOT}index.html`)) {
      throw new Error('the UI is not built: run `npm run build:web` first');
    }
    // The webhook step's receiver is on the loopback.
    t = await TestApp.start({
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_POLL_MS: '20',
    });
    token = await t.login();
    const seeded = await t.request('POST', '/api/integrations/ingest', {
      token,
      body: seedPayload(),
    });
    expect(seeded.status).toBe(200);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // Anything the page's Content-Security-Policy refuses is collected, to fail on below.
    await page.addInitScript(() => {
      document.addEventListener(
        'securitypolicyviolation',
        (event: { violatedDirective: string; blockedURI: string }) => {
          (window as unknown as { cspViolations: string[] }).cspViolations ??= [];
          (window as unknown as { cspViolations: string[] }).cspViolations.push(
            `${event.violatedDirective} ${event.blockedURI}`,
          );
        },
      );
    });
    watchConsole(page);
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, STEP_TIMEOUT);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    if (Object.keys(figures).length > 0) {
      mkdirSync(`${ROOT}bench/results`, { recursive: true });
      writeFileSync(
        FIGURES,
        `${JSON.stringify({ measuredAt: new Date().toISOString(), ...figures }, null, 2)}\n`,
      );
    }
  });

  /** Chromium's console errors about the Content-Security-Policy, collected to fail on below. */
  const watchConsole = (watched: Page) =>
    watched.on('console', (message) => {
      if (message.type() === 'error' && /Content.Security.Policy/i.test(message.text())) {
        violations.push(message.text());
      }
    });
  const shot = (name: string) =>
    page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true });
  const go = (label: string) =>
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label }).click();
  /**
   * Frame times as the page sees them: the gaps between animation frames while the test drags
   * and wheels, and the map's own drawing times (its performance.measure entries).
   */
  const startFrames = () =>
    page.evaluate(() => {
      performance.clearMeasures('asset-map:draw');
      const state = { gaps: [] as number[], last: 0, running: true };
      window.frames_ = state;
      const tick = (now: number) => {
        if (state.last) state.gaps.push(now - state.last);
        state.last = now;
        if (state.running) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
  const stopFrames = async () => {
    const measured = await page.evaluate(() => {
      const state = window.frames_ as { gaps: number[]; running: boolean };
      state.running = false;
      const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
      const at = (values: number[], share: number) =>
        values[Math.min(values.length - 1, Math.floor(values.length * share))] ?? 0;
      const gaps = sorted(state.gaps);
      const drawn = sorted(
        performance.getEntriesByName('asset-map:draw').map((entry) => entry.duration),
      );
      return {
        frames: gaps.length,
        frameP95Ms: at(gaps, 0.95),
        frameMaxMs: gaps[gaps.length - 1] ?? 0,
        framesOver50Ms: gaps.filter((gap) => gap > 50).length,
        draws: drawn.length,
        drawP95Ms: at(drawn, 0.95),
        drawMaxMs: drawn[drawn.length - 1] ?? 0,
      };
    });
    return Object.fromEntries(
      Object.entries(measured).map(([key, value]) => [key, Math.round(value * 10) / 10]),
    ) as typeof measured;
  };
  /** Waits for the inventory to show this many rows, once its request has answered. */
  const rows = (count: number) =>
    page.waitForFunction(
      (expected) =>
        document.querySelector('table.assets[aria-busy="false"]') !== null &&
        document.querySelectorAll('table.assets tbody tr').length === expected,
      count,
    );

  /** Waits for the findings table to show this many rows, once its request has answered. */
  const findingRows = (count: number) =>
    page.waitForFunction(
      (expected) =>
        document.querySelector('table.findings[aria-busy="false"]') !== null &&
        document.querySelectorAll('table.findings tbody tr').length === expected,
      count,
    );

  it(
    'signs in, with a wrong password first, shown in words, and lands on the dashboard',
    async () => {
      await page.goto(`${t.baseUrl}/`);
      await page.waitForURL(/\/login$/);
      await page.getByLabel('E-mail').fill(ADMIN_EMAIL);
      await page.getByLabel('Password').fill('not-the-password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByRole('alert').textContent()).resolves.toMatch(
        /invalid|wrong|credentials/i,
      );
      await shot('sign-in');
      await page.getByLabel('Password').fill(ADMIN_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/dashboard$/);
      await page.getByRole('link', { name: 'web-frontend-1' }).waitFor();
      // The token is the tab's only: in sessionStorage, never in localStorage or a cookie.
      const stored = await page.evaluate(() => ({
        session: Object.keys(sessionStorage),
        local: localStorage.length,
        cookie: document.cookie,
      }));
      expect(stored).toEqual({ session: ['asset-map.token'], local: 0, cookie: '' });
    },
    STEP_TIMEOUT,
  );

  it(
    "shows the dashboard: its numbers are the API's, and each opens the list it counts",
    async () => {
      // A fresh navigation from a blank page (so that nothing the page before sends is counted),
      // timed by the page's own clock. The API's requests are numbered in the order sent, and
      // each sending and answer recorded in the order the browser tells them.
      await page.goto('about:blank');
      const numbers = new Map<Request, number>();
      const events: { answered: boolean; request: number; path: string }[] = [];
      const record = (answered: boolean) => (request: Request) => {
        const path = new URL(request.url()).pathname;
        if (!path.startsWith('/api/') || path === '/api/auth/me') return;
        if (!answered) numbers.set(request, numbers.size);
        const number = numbers.get(request);
        if (number !== undefined) events.push({ answered, request: number, path });
      };
      const onRequest = record(false);
      // An answer is in once its body is: the page acts on an answer only then.
      const onAnswer = record(true);
      page.on('request', onRequest);
      page.on('requestfinished', onAnswer);
      page.on('requestfailed', onAnswer);
      await page.goto(`${t.baseUrl}/dashboard`);
      const panel = (heading: string) =>
        page.locator('section.panel', { has: page.getByRole('heading', { name: heading }) });
      await page.locator('.severity-bars tbody tr').first().waitFor();
      await panel('Riskiest assets').locator('li').first().waitFor();
      await panel('Feeds').locator('li').first().waitFor();
      await page.locator('.trend-chart canvas').waitFor();
      figures.dashboardUsableMs = Math.round(await page.evaluate(() => performance.now()));
      await panel('Last runs').locator('li').first().waitFor();
      await page.locator('.mean-time-to-fix').filter({ hasNotText: '…' }).waitFor();
      // No asset is tagged internet yet: the exposure panel reads two lists and stops there.
      await panel('Reachable from the internet')
        .getByText(/No asset is tagged/)
        .waitFor();
      page.off('request', onRequest);
      page.off('requestfinished', onAnswer);
      page.off('requestfailed', onAnswer);
      // The first page is four requests, sent together; the last runs and the mean time to
      // fix's sample come next, then the exposure panel's two lists.
      const sent = events.filter((event) => !event.answered).map((event) => event.path);
      expect(sent.slice(0, 4).sort()).toEqual([
        '/api/assets',
        '/api/findings/summary',
        '/api/findings/trend',
        '/api/sources',
      ]);
      expect(sent.slice(4, 6).sort()).toEqual(['/api/findings', '/api/integrations/runs']);
      expect(sent.slice(6).sort()).toEqual(['/api/assets', '/api/findings']);
      // The first four go before any answer; each group after them once every request of the
      // groups before it has answered.
      const answeredWhenSent = (request: number) => {
        const sending = events.findIndex((event) => !event.answered && event.request === request);
        return events
          .slice(0, sending)
          .filter((event) => event.answered)
          .map((event) => event.request);
      };
      for (const request of [0, 1, 2, 3]) {
        expect(answeredWhenSent(request)).toEqual([]);
      }
      for (const request of [4, 5]) {
        expect(answeredWhenSent(request)).toEqual(expect.arrayContaining([0, 1, 2, 3]));
      }
      for (let request = 6; request < sent.length; request++) {
        expect(answeredWhenSent(request)).toEqual(expect.arrayContaining([0, 1, 2, 3, 4, 5]));
      }

      const api = async (path: string) => (await t.request('GET', path, { token })).body;
      const summary = await api('/api/findings/summary');
      for (const severity of ['critical', 'high', 'medium', 'low', 'none']) {
        const row = page.locator(`.severity-bars tr[data-severity="${severity}"]`);
        await expect(row.locator('.open-count').textContent()).resolves.toBe(
          `${summary.open[severity]} open ${severity}`,
        );
        await expect(row.locator('.overdue-count').textContent()).resolves.toBe(
          `${summary.overdue[severity]} overdue ${severity}`,
        );
      }
      expect(summary.open).toMatchObject({ critical: 1, high: 1, medium: 1 });
      const flow = panel('Opened and fixed');
      await expect(flow.locator('dd').nth(0).textContent()).resolves.toBe(
        `${summary.openedLast30Days} opened`,
      );
      await expect(flow.locator('dd').nth(1).textContent()).resolves.toBe(
        `${summary.fixedLast30Days} fixed`,
      );
      // The first 10 by risk, those with a score (the list sorts unscored assets last).
      const riskiest = await api('/api/assets?sort=-risk_score&limit=10');
      const scored = riskiest.assets
        .filter((asset: { risk_score: number | null }) => asset.risk_score !== null)
        .map((asset: { name: string }) => asset.name);
      expect(scored.length).toBeGreaterThan(0);
      await expect(panel('Riskiest assets').locator('li a').allTextContents()).resolves.toEqual(
        scored,
      );
      const runs = await api('/api/integrations/runs?limit=10');
      await expect(panel('Last runs').locator('li').count()).resolves.toBe(runs.length);
      const feeds = await api('/api/sources');
      await expect(panel('Feeds').locator('li > a').allTextContents()).resolves.toEqual(
        feeds.map((feed: { name: string }) => feed.name),
      );
      // The trend's table holds the API's days.
      const trend = await api('/api/findings/trend?days=90');
      await expect(page.locator('.trend-table tbody tr').count()).resolves.toBe(trend.length);
      await page.getByRole('button', { name: '30 days' }).click();
      await page.getByRole('heading', { name: 'Open findings over 30 days' }).waitFor();
      await page.waitForFunction(
        () => document.querySelectorAll('.trend-table tbody tr').length === 30,
      );
      await shot('dashboard');
      await page.setViewportSize({ width: 390, height: 844 });
      await page.locator('.trend-chart canvas').waitFor();
      await shot('dashboard-phone');
      await page.setViewportSize({ width: 1280, height: 800 });

      // A number opens its list: the open criticals, then the riskiest assets.
      await page.getByRole('link', { name: '1 open critical' }).click();
      await page.waitForURL(/\/findings\?status=open&severity=critical$/);
      await findingRows(1);
      await expect(page.locator('table.findings .vuln-id').allTextContents()).resolves.toEqual([
        'CVE-2024-0002',
      ]);
      await page.goBack();
      await page.getByRole('link', { name: 'Riskiest assets' }).click();
      await page.waitForURL(/\/assets\?sort=-risk_score$/);
      await rows(4);
    },
    STEP_TIMEOUT,
  );

  it(
    'shows the first inventory page, then searches, filters and sorts it',
    async () => {
      // A fresh navigation, timed by the page's own clock from its start.
      await page.goto(`${t.baseUrl}/assets`);
      await page.locator('table.assets tbody tr').first().waitFor();
      figures.inventoryUsableMs = Math.round(await page.evaluate(() => performance.now()));
      figures.firstPageScriptGzipBytes = firstPageScriptBytes();
      expect(figures.firstPageScriptGzipBytes).toBeLessThan(300 * 1024);
      await rows(4);
      await shot('inventory');

      await page.getByLabel('Search').fill('web-front');
      await page.waitForURL(/search=web-front/);
      await rows(1);

      await page.getByLabel('Search').fill('');
      await page.getByLabel('Site').fill('lyon');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.waitForURL(/site=lyon/);
      await rows(1);
      await page.getByRole('button', { name: 'Clear' }).click();
      await rows(4);
      await page.getByRole('button', { name: 'Risk' }).click();
      await page.getByRole('button', { name: 'Risk' }).click();
      await page.waitForURL(/sort=-risk_score/);
      await page.waitForFunction(() => {
        const names = [...document.querySelectorAll('table.assets tbody tr td:nth-child(2)')].map(
          (cell) => cell.textContent,
        );
        const at = (name: string) => names.indexOf(name);
        return (
          at('web-frontend-1') >= 0 &&
          at('web-frontend-1') < at('orders-db') &&
          at('orders-db') < at('edge-firewall')
        );
      });
      // A bad filter is the API's 400, in its words.
      await page.getByLabel('Port', { exact: true }).fill('99999');
      await page.getByRole('button', { name: 'Filter' }).click();
      await expect(page.getByRole('alert').textContent()).resolves.toMatch(/port/);
      await page.getByRole('button', { name: 'Clear' }).click();

      await page.setViewportSize({ width: 390, height: 844 });
      await page.locator('table.assets tbody tr').first().waitFor();
      await shot('inventory-phone');
      await page.setViewportSize({ width: 1280, height: 800 });
    },
    STEP_TIMEOUT,
  );

  it(
    'opens an asset, with its vulnerabilities by score, and edits it',
    async () => {
      await page.getByLabel('Search').fill('web-front');
      await page.getByRole('link', { name: 'web-frontend-1' }).click();
      await page.waitForURL(/\/assets\/web-1$/);
      await page.getByRole('heading', { name: /web-frontend-1/, level: 1 }).waitFor();
      const findings = page.locator('section[aria-labelledby="findings"]');
      await findings.locator('table.findings[aria-busy="false"]').waitFor();
      const ids = await findings.locator('table.findings .vuln-id').allTextContents();
      expect(ids).toEqual(['CVE-2024-0002', 'CVE-2024-0003', 'CVE-2024-0001']);
      await expect(findings.locator('table.findings .status').allTextContents()).resolves.toEqual([
        'open',
        'open',
        'open',
      ]);
      await expect(page.locator('ul.relations li').count()).resolves.toBe(2);

      await page.getByRole('button', { name: 'Edit' }).click();
      await page.getByLabel('IP address').fill('not-an-ip');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect(page.getByRole('alert').textContent()).resolves.toMatch(
        /ip must be an IP address/,
      );
      await page.getByLabel('IP address').fill('10.0.1.11');
      await page.getByLabel('Site').fill('marseille');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.locator('dl.fields').getByText('marseille').waitFor();
      const stored = await t.request('GET', '/api/assets/web-1', { token });
      expect(stored.body).toMatchObject({
        ip: '10.0.1.11',
        site: 'marseille',
        name: 'web-frontend-1',
      });

      // The history, newest first: the edit, field by field, then the ingestion that created it.
      const history = page.locator('section[aria-labelledby="history"] li.change');
      await history.first().locator('table.diff').waitFor();
      await expect(history.count()).resolves.toBe(2);
      const update = history.nth(0);
      await expect(update.locator('.change-action').textContent()).resolves.toBe('Updated');
      await expect(update.textContent()).resolves.toContain(`by ${ADMIN_EMAIL}`);
      const diff = await update
        .locator('table.diff tbody tr')
        .evaluateAll((rows) =>
          rows.map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent)),
        );
      // The ip is the first of the addresses: the list changes with it.
      expect(diff).toEqual([
        ['ip', '10.0.1.10', '→', '10.0.1.11'],
        ['site', 'paris', '→', 'marseille'],
        ['addresses', '10.0.1.10', '→', '10.0.1.11'],
      ]);
      const creation = history.nth(1);
      await expect(creation.locator('.change-action').textContent()).resolves.toBe('Created');
      await expect(creation.locator('.change-summary').textContent()).resolves.toMatch(
        /name web-frontend-1 .*ip 10\.0\.1\.10.*3 vulnerabilities · 2 services/,
      );
      await expect(
        creation.getByRole('link', { name: 'an ingestion run' }).getAttribute('href'),
      ).resolves.toMatch(/^\/runs\//);
      await shot('asset');
    },
    STEP_TIMEOUT,
  );

  it(
    'draws a diagram on the map, saves it, and opens it again',
    async () => {
      await page.getByRole('link', { name: 'Show on the map' }).click();
      await page.waitForURL(/\/map\?asset=web-1/);
      await page.getByRole('heading', { name: /web-frontend-1/, level: 2 }).waitFor();
      await page.getByText(/3 assets within 1 hop/).waitFor();

      // The start asset is centred: drag it aside, then save the layout.
      const canvas = page.locator('canvas');
      const box = (await canvas.boundingBox())!;
      const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      await page.mouse.move(centre.x, centre.y);
      await page.mouse.down();
      await page.mouse.move(centre.x + 60, centre.y + 40, { steps: 5 });
      await page.mouse.move(centre.x + 120, centre.y + 80, { steps: 5 });
      await page.mouse.up();

      await page.getByLabel('Diagram name').fill('DMZ web path');
      await page.getByLabel('Visibility').selectOption('public');
      await page.getByRole('button', { name: 'Save diagram' }).click();
      await page.getByText(/Saved the diagram DMZ web path \(public\)/).waitFor();
      await page.waitForURL(/\/map\?diagram=/);
      const diagramId = new URL(page.url()).searchParams.get('diagram')!;
      const saved = await t.request('GET', `/api/diagrams/${diagramId}`, { token });
      expect(saved.body.visibility).toBe('public');
      const nodes = saved.body.content.nodes as { assetId: string; x: number; y: number }[];
      expect(nodes.map((node) => node.assetId).sort()).toEqual(['db-1', 'fw-1', 'web-1']);
      expect(saved.body.content.edges).toHaveLength(2);
      const web = nodes.find((node) => node.assetId === 'web-1')!;
      const others = nodes.filter((node) => node.assetId !== 'web-1');
      // Dragged 120 px right and 80 down (at the map's scale) from where it was placed.
      expect(web.x).toBeGreaterThan(Math.min(...others.map((node) => node.x)));

      // The path from the workstation to the database, and what the firewall reaches on 5432.
      await page.getByLabel('Name, IP…').fill('workstation');
      await page.getByRole('button', { name: 'Find' }).click();
      await page.getByRole('button', { name: /workstation-ana .* add/ }).click();
      await page.getByRole('heading', { name: /workstation-ana/, level: 2 }).waitFor();
      await page.getByLabel('Path to (an asset on the map)').fill('orders');
      await page.getByRole('button', { name: 'Path to orders-db' }).click();
      await page.getByText(/A path of 3 hops is highlighted/).waitFor();
      await shot('map');

      // From the workstation, port 443 reaches the firewall (a relation without ports lets any
      // port through) and the web server behind it, not the database (5432 only).
      await page.getByLabel('Reachable on port').fill('443');
      await page.getByRole('button', { name: 'Show', exact: true }).click();
      await page.getByText(/2 assets reachable on port 443, highlighted/).waitFor();
      await expect(
        page.getByRole('heading', { name: 'Reachable from here' }).isVisible(),
      ).resolves.toBe(true);

      await go('Diagrams');
      await page.getByRole('link', { name: 'DMZ web path' }).waitFor();
      await shot('diagrams');
      await page.getByRole('link', { name: 'DMZ web path' }).click();
      await page.getByText(/Opened DMZ web path: 3 assets/).waitFor();
    },
    STEP_TIMEOUT,
  );

  it(
    'tags an asset internet in its form, lists it by tag, and shows on the dashboard the findings it reaches',
    async () => {
      // The seed's edge-firewall lets tcp/443 through to web-frontend-1 (relation fw-1 → web-1),
      // whose https service (443/tcp) runs on an asset with a critical and a high finding.
      await page.goto(`${t.baseUrl}/assets/fw-1`);
      await page.getByRole('heading', { name: /edge-firewall/, level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Edit' }).click();
      await page.getByLabel('Tags').fill(`internet ${'x'.repeat(65)}`);
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect(page.getByRole('alert').textContent()).resolves.toMatch(
        /tags\[1\] must be 1 to 64 printable characters without white space/,
      );
      await page.getByLabel('Tags').fill('internet  dmz');
      await page.getByRole('button', { name: 'Save changes' }).click();
      const tags = page.locator('dl.fields dd.tags a');
      await tags.first().waitFor();
      await expect(tags.allTextContents()).resolves.toEqual(['internet', 'dmz']);
      const stored = await t.request('GET', '/api/assets/fw-1', { token });
      expect(stored.body.tags).toEqual(['internet', 'dmz']);

      // A tag opens the inventory of the assets holding it; the filter is kept in the address.
      await tags.first().click();
      await page.waitForURL(/\/assets\?tag=internet$/);
      await rows(1);
      await expect(page.getByLabel('Tags').inputValue()).resolves.toBe('internet');
      await page.getByLabel('Tags').fill('internet pci');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.waitForURL(/tag=internet&tag=pci/);
      await rows(0);
      await page.getByRole('button', { name: 'Clear' }).click();
      await rows(4);

      // The dashboard: what the API's reachability answers, row for row.
      const reached = await t.request('GET', '/api/assets/fw-1/reachable?port=443&protocol=tcp', {
        token,
      });
      expect(reached.body.map((entry: { asset: { id: string } }) => entry.asset.id)).toContain(
        'web-1',
      );
      await go('Dashboard');
      const exposure = page.locator('section.panel.exposure');
      await exposure.locator('table.exposure-table tbody tr').first().waitFor();
      const shown = await exposure
        .locator('table.exposure-table tbody tr')
        .evaluateAll((found) =>
          found.map((row) => [
            row.querySelector('td a')?.textContent,
            ...[...row.querySelectorAll('td')].slice(1).map((cell) => cell.textContent),
          ]),
        );
      expect(shown).toEqual([
        ['CVE-2024-0002', 'web-frontend-1', '443/tcp', 'edge-firewall, 1 hop'],
        ['CVE-2024-0003', 'web-frontend-1', '443/tcp', 'edge-firewall, 1 hop'],
      ]);
      await exposure.getByRole('link', { name: 'CVE-2024-0002' }).click();
      await page.waitForURL(/\/findings\?vulnId=CVE-2024-0002&status=open$/);
      await findingRows(1);
      await page.goBack();
      await exposure.locator('table.exposure-table tbody tr').first().waitFor();
      await shot('dashboard');
    },
    STEP_TIMEOUT,
  );

  it(
    'lists the ingestion runs and shows one with its changes',
    async () => {
      await go('Ingestion runs');
      const row = page.locator('tbody tr', { hasText: 'nmap-dmz' });
      await expect(row.textContent()).resolves.toMatch(/succeeded.*4 created/);
      await shot('runs');
      await row.getByRole('link').click();
      await page.getByRole('heading', { name: 'Ingestion run', level: 1 }).waitFor();
      await page.getByText('assetsCreated').waitFor();

      // Its change list: what the run wrote, each object named, as the API records it.
      const runId = new URL(page.url()).pathname.split('/').pop()!;
      const recorded = await t.request('GET', `/api/changes?runId=${runId}`, { token });
      expect(recorded.status).toBe(200);
      // Its 4 assets, 3 relations and the 3 findings of web-1's vulnerabilities.
      expect(recorded.body).toHaveLength(10);
      const changes = page.locator('section[aria-labelledby="run-changes"] li.change');
      await changes.first().waitFor();
      await expect(changes.count()).resolves.toBe(10);
      await expect(
        page.locator('section[aria-labelledby="run-changes"] .summary').textContent(),
      ).resolves.toBe('10 changes, newest first');
      const heads = await changes.locator('.change-head').allTextContents();
      for (const created of [
        'Created asset web-frontend-1',
        'Created asset orders-db',
        'Created asset edge-firewall',
        'Created asset workstation-ana',
        'Created relation fw-1 → web-1',
        'Created relation web-1 → db-1',
        'Created relation ws-1 ↔ fw-1',
        'Created finding CVE-2024-0001 on web-1',
        'Created finding CVE-2024-0002 on web-1',
        'Created finding CVE-2024-0003 on web-1',
      ]) {
        expect(heads.some((head) => head.startsWith(created))).toBe(true);
      }
      await expect(
        changes.getByRole('link', { name: 'web-frontend-1' }).getAttribute('href'),
      ).resolves.toBe('/assets/web-1');
      await shot('run');
    },
    STEP_TIMEOUT,
  );

  it(
    'makes an API key shown once, lists users, and changes the password',
    async () => {
      await go('API keys');
      await page.getByLabel('Name').fill('ci-nightly');
      await page.getByRole('button', { name: 'Create key' }).click();
      const key = await page.getByLabel('New key').inputValue();
      expect(key).toMatch(/^amk_/);
      const used = await t.request('GET', '/api/auth/me', { token: key });
      expect(used.status).toBe(200);
      await shot('api-keys');

      await go('Users');
      await page.getByRole('cell', { name: ADMIN_EMAIL, exact: true }).waitFor();
      await shot('users');

      await go('Account');
      await page.getByLabel('Current password').fill(ADMIN_PASSWORD);
      await page.getByLabel('New password', { exact: true }).fill('short');
      await page.getByLabel('New password again').fill('short');
      await page.getByRole('button', { name: 'Change password' }).click();
      await expect(page.getByRole('alert').textContent()).resolves.toMatch(/newPassword/);
      await shot('account');
    },
    STEP_TIMEOUT,
  );

  it(
    `pans and zooms the map with ${MAP_NODES} assets`,
    async () => {
      const bulk = await t.request('POST', '/api/integrations/ingest', {
        token,
        body: bulkPayload(MAP_NODES),
      });
      expect(bulk.status).toBe(200);
      await go('Map');
      await page.getByRole('button', { name: 'Clear' }).click();
      await page.getByRole('button', { name: 'Load the whole inventory' }).click();
      await page.getByText(new RegExp(`${MAP_NODES + 4} assets and`)).waitFor({ timeout: 60_000 });

      const canvas = page.locator('canvas');
      const box = (await canvas.boundingBox())!;
      // The fitted map leaves a margin: a drag from its corner pans rather than moving a node.
      const corner = { x: box.x + 15, y: box.y + 15 };
      await page.mouse.move(corner.x, corner.y);
      await startFrames();
      for (let round = 0; round < 3; round++) {
        await page.mouse.down();
        await page.mouse.move(corner.x + 300, corner.y + 200, { steps: 20 });
        await page.mouse.move(corner.x, corner.y, { steps: 20 });
        await page.mouse.up();
        for (let i = 0; i < 8; i++) await page.mouse.wheel(0, -120);
        for (let i = 0; i < 8; i++) await page.mouse.wheel(0, 120);
        // Still for a moment, as a person pauses: the full drawing that follows is measured too.
        await page.waitForTimeout(600);
      }
      const panAndZoom = await stopFrames();
      expect(panAndZoom.draws).toBeGreaterThan(0);

      // Dragging one node among 5,004: found through the side panel, which centres it.
      await page.getByLabel('Name, IP…').fill('bulk-host-4321');
      await page.getByRole('button', { name: 'Find' }).click();
      await page.getByRole('button', { name: /bulk-host-4321 .* on the map/ }).click();
      await page.getByRole('heading', { name: /bulk-host-4321/, level: 2 }).waitFor();
      const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      await page.waitForTimeout(600);
      await page.mouse.move(centre.x, centre.y);
      await startFrames();
      await page.mouse.down();
      await page.mouse.move(centre.x + 150, centre.y + 80, { steps: 30 });
      await page.mouse.move(centre.x - 100, centre.y + 120, { steps: 30 });
      await page.mouse.up();
      await page.waitForTimeout(600);
      const drag = await stopFrames();
      figures.map = { nodes: MAP_NODES + 4, relations: MAP_NODES + 2, ...panAndZoom, drag };
      await page.keyboard.press('0');
      await shot('map-5000');
    },
    STEP_TIMEOUT,
  );

  it(
    'triages a finding as a false positive on the Findings page, and a new scan keeps it so',
    async () => {
      const scan = {
        options: { source: 'vuln-scan' },
        assets: [
          {
            id: 'pay-1',
            name: 'payments-api',
            ip: '10.0.4.40',
            site: 'lyon',
            vulnerabilities: [
              { id: 'CVE-2024-4242', score: 8.8, summary: 'SQL injection in the search form' },
            ],
          },
        ],
      };
      const scanned = await t.request('POST', '/api/integrations/ingest', { token, body: scan });
      expect(scanned.status).toBe(200);

      // Highest score first by default: the seed's 9.8 leads.
      await go('Findings');
      await page.getByRole('heading', { name: 'Findings', level: 1 }).waitFor();
      await page.locator('table.findings[aria-busy="false"] tbody tr').first().waitFor();
      await expect(
        page.locator('table.findings tbody tr').first().locator('.vuln-id').textContent(),
      ).resolves.toBe('CVE-2024-0002');

      await page.getByLabel('Vulnerability id').fill('CVE-2024-4242');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.waitForURL(/vulnId=CVE-2024-4242/);
      await findingRows(1);
      const row = page.locator('table.findings tbody tr', { hasText: 'CVE-2024-4242' });
      await expect(row.locator('.status').textContent()).resolves.toBe('open');
      await expect(row.locator('.severity').textContent()).resolves.toBe('high');
      await expect(
        row.getByRole('link', { name: 'payments-api' }).getAttribute('href'),
      ).resolves.toBe('/assets/pay-1');

      await row.getByRole('checkbox').check();
      await page.getByRole('button', { name: 'Triage selected (1)' }).click();
      await page.getByLabel('Decision').selectOption('false_positive');
      const reason = 'Not reachable: the WAF blocks the search form (rule 942100)';
      await page.getByLabel('Reason').fill(reason);
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.getByText('Marked 1 finding as false positive.').waitFor();
      await page.waitForFunction(
        () =>
          document.querySelector('table.findings tbody tr .status')?.textContent ===
          'false positive',
      );
      const triaged = await t.request('GET', '/api/findings?vulnId=CVE-2024-4242', { token });
      expect(triaged.body).toMatchObject([
        {
          assetId: 'pay-1',
          status: 'false_positive',
          reason,
          triagedBy: { email: ADMIN_EMAIL },
        },
      ]);

      // The same scan again reports it again: the triage is kept.
      const again = await t.request('POST', '/api/integrations/ingest', { token, body: scan });
      expect(again.status).toBe(200);
      await page.reload();
      await findingRows(1);
      await expect(row.locator('.status').textContent()).resolves.toBe('false positive');
      await expect(row.locator('.finding-reason').textContent()).resolves.toContain(reason);
      // Not back among the open findings.
      await page.getByRole('checkbox', { name: 'open', exact: true }).check();
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.waitForURL(/status=open/);
      await findingRows(0);
      await expect(page.locator('p.summary').textContent()).resolves.toBe('No findings match.');

      // On the asset's page it is folded away with the fixed ones.
      await page.goto(`${t.baseUrl}/assets/pay-1`);
      const section = page.locator('section[aria-labelledby="findings"]');
      const folded = section.locator('details.folded');
      await folded.locator('summary').waitFor();
      await expect(folded.locator('summary').textContent()).resolves.toBe(
        'Fixed and false positives (1)',
      );
      await expect(section.locator('p.summary').textContent()).resolves.toBe(
        'No open or accepted findings.',
      );
      await expect(folded.locator('.status').isVisible()).resolves.toBe(false);
      await folded.locator('summary').click();
      await expect(folded.locator('.status').textContent()).resolves.toBe('false positive');
    },
    STEP_TIMEOUT,
  );

  it(
    "shows a Trivy run's format, and its container image by image name and OS",
    async () => {
      const scan = await t.request(
        'POST',
        '/api/integrations/ingest?format=trivy&source=trivy-ci',
        {
          token,
          rawBody: readFileSync(`${ROOT}test/fixtures/trivy/shop-web-image.json`),
          headers: { 'content-type': 'application/json' },
        },
      );
      expect(scan.status).toBe(200);
      await go('Ingestion runs');
      const row = page.locator('tbody tr', { hasText: 'trivy-ci' });
      await expect(row.textContent()).resolves.toMatch(/trivy \/ merge/);
      await row.getByRole('link').click();
      await page.getByRole('heading', { name: 'Ingestion run', level: 1 }).waitFor();
      const field = (label: string) =>
        page
          .locator('dl.fields > div', {
            has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }),
          })
          .locator('dd');
      await expect(field('Format').textContent()).resolves.toBe('trivy');

      const image = 'registry.example.test/shop/web:1.4.2';
      await page.goto(`${t.baseUrl}/assets/${encodeURIComponent(image)}`);
      await page.getByRole('heading', { name: image, level: 1 }).waitFor();
      await expect(field('Image').textContent()).resolves.toBe(image);
      await expect(field('OS').textContent()).resolves.toBe('alpine 3.19.1');
      await expect(field('Type').textContent()).resolves.toBe('container-image');
      // An image has no address, vendor or model to show.
      await expect(page.locator('dl.fields dt', { hasText: 'IP address' }).count()).resolves.toBe(
        0,
      );
    },
    STEP_TIMEOUT,
  );

  it(
    'shows a late feed, and a webhook created, pinged, its delivery answered and sent again',
    async () => {
      // nmap-dmz is expected every minute and last succeeded an hour ago: late.
      const expected = await t.request('PUT', '/api/sources/nmap-dmz', {
        token,
        body: { expectedEverySeconds: 60 },
      });
      expect(expected.status).toBe(200);
      const anHourAgo = new Date(Date.now() - 3_600_000);
      await t.seed(async () => {
        await t.dataSource
          .getRepository(Feed)
          .update({ name: 'nmap-dmz' }, { expectedSince: anHourAgo });
        await t.dataSource
          .getRepository(IngestionRun)
          .update({ source: 'nmap-dmz' }, { finishedAt: anHourAgo });
      });
      const feeds = (await t.request('GET', '/api/sources', { token })).body;
      const feed = feeds.find((entry: { name: string }) => entry.name === 'nmap-dmz');
      await go('Feeds');
      const row = page.locator('tbody tr', { hasText: 'nmap-dmz' });
      await row.locator('.tag', { hasText: 'late' }).waitFor();
      const cells = await row.locator('td').allTextContents();
      expect(cells[1]).toBe(String(feed.assets));
      expect(cells[2]).toMatch(/succeeded$/);

      const receiver = await WebhookReceiver.start();
      try {
        await go('Webhooks');
        const form = page.getByRole('form', { name: 'Create webhook' });
        await form.getByLabel('URL').fill(receiver.url);
        await form.getByLabel('asset.created').check();
        await form.getByRole('button', { name: 'Create webhook' }).click();
        await expect(page.getByRole('status').textContent()).resolves.toMatch(/whsec_/);
        await page.getByRole('link', { name: receiver.url }).click();
        await page.getByRole('heading', { name: 'Webhook', exact: true, level: 1 }).waitFor();
        const id = new URL(page.url()).pathname.split('/').pop()!;
        await page.getByRole('button', { name: 'Ping' }).click();
        await receiver.untilCount('ping', 1);
        await eventually(
          () => t.request('GET', `/api/webhooks/${id}/deliveries`, { token }),
          (answer) => answer.body[0]?.status === 'delivered',
        );
        await page.reload();
        const delivery = page.locator('section tbody tr', { hasText: 'ping' });
        await expect(delivery.locator('.status').textContent()).resolves.toBe('delivered');
        await expect(delivery.locator('td').nth(4).textContent()).resolves.toBe('200');
        await delivery.getByRole('button', { name: /Redeliver/ }).click();
        await expect(page.getByRole('status').textContent()).resolves.toBe('Queued again.');
        await receiver.untilCount('ping', 2);
        const [first, again] = receiver.ofType('ping');
        expect(again.headers['webhook-id']).toBe(first.headers['webhook-id']);
        // The list is read again once the redelivery is queued: the new delivery comes first.
        await page.locator('section tbody tr', { hasText: 'ping' }).nth(1).waitFor();
        await t.request('DELETE', `/api/webhooks/${id}`, { token });
      } finally {
        await receiver.close();
      }
    },
    STEP_TIMEOUT,
  );

  it(
    'exports a list filtered by CIDR, then merges two selected assets into one',
    async () => {
      const seeded = await t.request('POST', '/api/integrations/ingest', {
        token,
        body: {
          assets: [
            {
              id: 'dup-a',
              name: 'lab-printer',
              addresses: ['192.0.2.40'],
              hostnames: ['printer.lab'],
            },
            {
              id: 'dup-b',
              name: 'lab-printer (dhcp)',
              addresses: ['192.0.2.41'],
              macAddresses: ['aa:bb:cc:00:00:41'],
              hostnames: ['printer-dhcp.lab'],
            },
          ],
        },
      });
      expect(seeded.status).toBe(200);
      await go('Inventory');
      await page.locator('table.assets tbody tr').first().waitFor();
      await page.getByLabel('CIDR').fill('192.0.2.0/24');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.waitForURL(/cidr=192\.0\.2\.0%2F24/);
      await rows(2);

      // The export is the list as filtered: its two assets, after the header.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Export', exact: true }).click(),
      ]);
      const csv = readFileSync(await download.path(), 'utf8');
      const lines = csv.trim().split(/\r?\n/);
      expect(
        lines
          .slice(1)
          .map((line) => line.split(',')[0])
          .sort(),
      ).toEqual(['dup-a', 'dup-b']);

      await page.getByRole('checkbox', { name: 'Select lab-printer for a merge' }).check();
      await page
        .getByRole('checkbox', { name: 'Select lab-printer (dhcp) for a merge', exact: true })
        .check();
      await page.getByRole('button', { name: 'Merge selected…' }).click();
      const confirmation = page.locator('section.merge-confirm');
      const kept = confirmation.locator('li[data-fate="kept"]');
      const deleted = confirmation.locator('li[data-fate="deleted"]');
      // The first selected is kept unless another is chosen; the confirmation follows the choice.
      await expect(kept.textContent()).resolves.toMatch(/^lab-printer is kept/);
      await confirmation.getByRole('radio', { name: 'lab-printer (dhcp) dup-b' }).check();
      await expect(kept.textContent()).resolves.toMatch(/^lab-printer \(dhcp\) is kept/);
      await confirmation.getByRole('radio', { name: 'lab-printer dup-a' }).check();
      await expect(deleted.allTextContents()).resolves.toEqual([
        expect.stringMatching(
          /^lab-printer \(dhcp\) \(192\.0\.2\.41, aa:bb:cc:00:00:41, printer-dhcp\.lab\) is folded into lab-printer and deleted/,
        ),
      ]);
      await confirmation.getByRole('button', { name: 'Merge into lab-printer' }).click();
      await page.waitForURL(/\/assets\/dup-a$/);
      await page.locator('dl.fields').getByText('192.0.2.40, 192.0.2.41').waitFor();
      await page.locator('dl.fields').getByText('printer.lab, printer-dhcp.lab').waitFor();
      const merged = await t.request('GET', '/api/assets/dup-a', { token });
      expect(merged.body).toMatchObject({
        addresses: ['192.0.2.40', '192.0.2.41'],
        macAddresses: ['aa:bb:cc:00:00:41'],
        hostnames: ['printer.lab', 'printer-dhcp.lab'],
      });
      expect((await t.request('GET', '/api/assets/dup-b', { token })).status).toBe(404);
    },
    STEP_TIMEOUT,
  );

  it(
    'is used with the keyboard, hides editing from a viewer, and signs out',
    async () => {
      // A new page's heading takes the focus (a screen reader announces it), Tab goes on to the
      // page's first control, and the skip link comes before everything else.
      await go('Inventory');
      await page.locator('table.assets tbody tr').first().waitFor();
      await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe(
        'Inventory',
      );
      // The page's actions: the export's format and button, then a new asset.
      await page.keyboard.press('Tab');
      await expect(page.evaluate(() => document.activeElement?.getAttribute('name'))).resolves.toBe(
        'format',
      );
      for (const action of ['Export', 'New asset']) {
        await page.keyboard.press('Tab');
        await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe(
          action,
        );
      }
      await expect(
        page.evaluate(() => document.querySelector('a, button, input, select')?.textContent),
      ).resolves.toBe('Skip to content');
      // Sorting by name with the keyboard only.
      await page.getByRole('button', { name: 'Name' }).focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(/sort=-name/);

      const viewer = await t.createUser('viewer');
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const other = await context.newPage();
      await other.goto(`${t.baseUrl}/assets/web-1`);
      await other.getByLabel('E-mail').fill(viewer.email);
      await other.getByLabel('Password').fill(viewer.password);
      await other.getByRole('button', { name: 'Sign in' }).click();
      await other.getByRole('heading', { name: /web-frontend-1/, level: 1 }).waitFor();
      await expect(other.getByRole('button', { name: 'Edit' }).count()).resolves.toBe(0);
      // Findings are read, not triaged: no checkbox, no Triage button, here or on their page.
      await other.locator('table.findings[aria-busy="false"] tbody tr').first().waitFor();
      await expect(other.getByRole('button', { name: /Triage/ }).count()).resolves.toBe(0);
      await expect(other.getByRole('checkbox').count()).resolves.toBe(0);
      await other
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Findings' })
        .click();
      await other.locator('table.findings[aria-busy="false"] tbody tr').first().waitFor();
      await expect(other.getByRole('button', { name: /Triage/ }).count()).resolves.toBe(0);
      await expect(other.locator('table.findings input[type="checkbox"]').count()).resolves.toBe(0);
      await expect(other.getByRole('link', { name: 'Users' }).count()).resolves.toBe(0);
      await context.close();

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'Sign in to Asset Map' }).waitFor();
      await expect(page.evaluate(() => sessionStorage.length)).resolves.toBe(0);
    },
    STEP_TIMEOUT,
  );

  it(
    'signs in through an OpenID Connect provider, the session never in the address bar',
    async () => {
      // A service of its own, set up for the provider this step starts on the loopback.
      const { provider, t: sso } = await startWithOidcProvider();
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      try {
        provider.next = {
          sub: 'olga-sub',
          email: 'olga@example.com',
          name: 'Olga Netops',
          groups: ['netops'],
        };
        const other = await context.newPage();
        watchConsole(other);
        const addresses: string[] = [];
        // Every address the tab went to, each redirect's included.
        other.on('request', (request) => {
          if (request.isNavigationRequest()) addresses.push(request.url());
        });
        await other.goto(`${sso.baseUrl}/assets`);
        await other.getByRole('link', { name: 'Sign in with Test IdP' }).click();
        // The provider's sign-in and consent are given at once (TestOidcProvider).
        await other.waitForURL(`${sso.baseUrl}/assets`);
        await other.getByRole('heading', { name: 'Inventory', level: 1 }).waitFor();
        await other.getByRole('button', { name: 'Sign out' }).waitFor();
        expect(addresses.some((address) => address.startsWith(provider.issuer))).toBe(true);
        const token = await other.evaluate(() => sessionStorage.getItem('asset-map.token'));
        expect(typeof token).toBe('string');
        expect(addresses.filter((address) => address.includes(token))).toEqual([]);
        const me = await sso.request('GET', '/api/auth/me', { token });
        expect(me.body).toMatchObject({ email: 'olga@example.com', role: 'editor' });
      } finally {
        await context.close();
        await sso.close();
        await provider.close();
      }
    },
    STEP_TIMEOUT,
  );

  it('broke no rule of the Content-Security-Policy on any page', async () => {
    const seen = await page.evaluate(
      () => (window as unknown as { cspViolations?: string[] }).cspViolations ?? [],
    );
    expect([...violations, ...seen]).toEqual([]);
  });
});

/** The gzipped size of the scripts index.html loads (the map's chunk is loaded when opened). */
function firstPageScriptBytes(): number {
  const html = readFileSync(`${WEB_ROOT}index.html`, 'utf8');
  const scripts = [...html.matchAll(/(?:src|href)="\/(static\/[^"]+\.js)"/g)].map(
    (match) => match[1],
  );
  return scripts.reduce((sum, path) => sum + statSync(`${WEB_ROOT}${path}.gz`).size, 0);
}

// The browser UI's figures, measured in Debian's Chromium by the browser test
// (test/browser/ui.browser-spec.ts, run here as `npm run test:browser`, on SQLite) with the page's
// Performance API, and reported from the JSON file it writes. Chromium renders without a GPU
// here, so the map's figures are those of software rendering. Then the dashboard on a store of a
// million assets and a million findings (on the bench's database), timed the same way.
/* global sessionStorage, performance -- the callbacks handed to the page run in the page */
import { Buffer } from 'node:buffer';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { ingest, limitRow } from '../harness.mjs';
import { benchAsset } from '../lib.mjs';
import { growStore } from './findings.mjs';

// Debian's Chromium and the browser test's flags (test/browser/chromium.json).
const { executablePath: CHROMIUM, args: CHROMIUM_FLAGS } = JSON.parse(
  readFileSync(new URL('../../test/browser/chromium.json', import.meta.url), 'utf8'),
);
/** The UI keeps its session token here (web/src/api.ts). */
const TOKEN_KEY = 'asset-map.token';
const ROUNDS = 3;

/** Assets 0 to `count` - 1 without vulnerabilities (the findings are added by SQL), a body at a time. */
async function loadAssets(h, service, count, perBody) {
  for (let from = 0; from < count; from += perBody) {
    const assets = [];
    for (let i = from; i < Math.min(from + perBody, count); i++) {
      assets.push({ ...benchAsset(i), vulnerabilities: [] });
    }
    const body = Buffer.from(JSON.stringify({ options: { mode: 'merge', source: 'ui' }, assets }));
    await ingest(service, body);
    h.log(`  loaded ${from + assets.length} assets`);
  }
}

/**
 * The dashboard opened afresh `ROUNDS` times: milliseconds from navigation until the first page's
 * panels show their data (usable: its four requests) and until the last runs and the mean time to
 * fix, which follow them, show too (complete); the median round's.
 */
async function timeDashboard(service) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const token = service.auth.authorization.replace(/^Bearer /, '');
    await page.addInitScript(
      ([key, value]) => sessionStorage.setItem(key, value),
      [TOKEN_KEY, token],
    );
    const rounds = [];
    for (let round = 0; round < ROUNDS; round++) {
      await page.goto(`${service.base}/dashboard`);
      for (const selector of [
        '.severity-bars tbody tr',
        '.trend-chart canvas',
        'section.riskiest li',
        'section.feeds li',
      ]) {
        await page.locator(selector).first().waitFor({ timeout: 120_000 });
      }
      const usable = await page.evaluate(() => performance.now());
      await page.locator('section.last-runs li').first().waitFor({ timeout: 120_000 });
      await page
        .locator('.mean-time-to-fix')
        .filter({ hasNotText: '…' })
        .waitFor({ timeout: 120_000 });
      const complete = await page.evaluate(() => performance.now());
      rounds.push({ usable, complete });
    }
    rounds.sort((a, b) => a.usable - b.usable);
    return rounds[Math.floor(rounds.length / 2)];
  } finally {
    await browser.close();
  }
}

export default {
  name: 'ui',
  missing() {
    return existsSync(CHROMIUM)
      ? null
      : 'the ui stage needs Chromium: bash test/browser/install-chromium.sh';
  },
  async run(h, { quick }) {
    const root = new URL('../..', import.meta.url).pathname;
    const file = join(root, 'bench/results/ui-browser.json');
    const env = { ...process.env };
    delete env.TEST_DATABASE_URL;
    execFileSync('npm', ['run', 'test:browser'], { cwd: root, env, stdio: 'ignore' });
    const figures = JSON.parse(readFileSync(file, 'utf8'));
    const map = figures.map;
    const rows = [
      limitRow(
        'first inventory page usable after navigation (ms)',
        figures.inventoryUsableMs,
        1000,
      ),
      limitRow('dashboard usable after navigation (ms)', figures.dashboardUsableMs, 1000),
      limitRow('first page scripts, gzipped (KB)', figures.firstPageScriptGzipBytes / 1024, 300),
      limitRow(`map of ${map.nodes} assets, pan and zoom: longest frame (ms)`, map.frameMaxMs, 50),
      { ...limitRow('the same: frames over 50 ms', map.framesOver50Ms, 1), target: '0' },
      limitRow('the same: 95th percentile frame (ms)', map.frameP95Ms, 50),
      limitRow('the same: longest draw (ms)', map.drawMaxMs, 50),
      limitRow('the same map, one node dragged: longest frame (ms)', map.drag.frameMaxMs, 50),
    ];

    const assets = quick ? 20_000 : 1_000_000;
    const findings = quick ? 100_000 : 1_000_000;
    const { url, service } = await h.freshService('ui_dashboard');
    h.log(`  the dashboard's store: ${assets} assets, ${findings} findings`);
    await loadAssets(h, service, assets, quick ? 10_000 : 100_000);
    await growStore(url, findings, assets);
    await service.settled();
    const dashboard = await timeDashboard(service);
    await service.stop();
    const size = `${assets / 1000}k assets, ${findings / 1000}k findings`;
    rows.push(limitRow(`dashboard usable, ${size} (ms)`, dashboard.usable, 1000), {
      ...limitRow(
        `the same, with the last runs and mean time to fix (ms)`,
        dashboard.complete,
        1000,
      ),
      target: null,
      pass: null,
    });
    return { rows, detail: { ...figures, dashboardAtScale: { assets, findings, ...dashboard } } };
  },
};

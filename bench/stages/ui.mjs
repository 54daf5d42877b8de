// The browser UI's figures, measured in Debian's Chromium by the browser test
// (test/browser/ui.browser-spec.ts, run here as `npm run test:browser`, on SQLite) with the page's
// Performance API, and reported from the JSON file it writes. Chromium renders without a GPU
// here, so the map's figures are those of software rendering.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { limitRow } from '../harness.mjs';

export default {
  name: 'ui',
  missing() {
    return existsSync('/usr/bin/chromium')
      ? null
      : 'the ui stage needs Chromium: bash test/browser/install-chromium.sh';
  },
  async run() {
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
      limitRow('first page scripts, gzipped (KB)', figures.firstPageScriptGzipBytes / 1024, 300),
      limitRow(`map of ${map.nodes} assets, pan and zoom: longest frame (ms)`, map.frameMaxMs, 50),
      { ...limitRow('the same: frames over 50 ms', map.framesOver50Ms, 1), target: '0' },
      limitRow('the same: 95th percentile frame (ms)', map.frameP95Ms, 50),
      limitRow('the same: longest draw (ms)', map.drawMaxMs, 50),
      limitRow('the same map, one node dragged: longest frame (ms)', map.drag.frameMaxMs, 50),
    ];
    return { rows, detail: figures };
  },
};

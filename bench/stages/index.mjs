// The bench's stages, in the order they run. A stage is a module of its own whose default export
// is `{ name, run(harness, options), missing?() }`: run resolves to `{ rows, detail? }` (see
// bench/README.md); missing answers what the stage needs that the machine lacks, or null, and is
// asked of every selected stage before the first runs. Adding one is a file and a line here.
import apiKeys from './api-keys.mjs';
import changes from './changes.mjs';
import exportStage from './export.mjs';
import findings from './findings.mjs';
import formats from './formats.mjs';
import http from './http.mjs';
import identity from './identity.mjs';
import ingest from './ingest.mjs';
import largeBody from './large-body.mjs';
import scale from './scale.mjs';
import ui from './ui.mjs';
import webhooks from './webhooks.mjs';

export const stages = [
  ingest,
  largeBody,
  formats,
  http,
  apiKeys,
  changes,
  findings,
  webhooks,
  exportStage,
  identity,
  scale,
  ui,
];

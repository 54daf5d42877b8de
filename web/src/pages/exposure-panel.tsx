import { ApiError, enc, get, query, type Asset, type Finding, type Service } from '../api';
import { ErrorMessage, SeverityBadge, useAsync } from '../ui';

/** The tag that marks an asset facing the internet. */
export const INTERNET_TAG = 'internet';

// What the panel reads, bounded so that its requests stay few whatever the inventory: the
// highest-scored open critical and high findings, on at most EXPOSED_ASSETS assets, walked to
// from at most INTERNET_ASSETS internet-facing assets, in at most WALKS reachability requests.
const FINDINGS = 100;
const EXPOSED_ASSETS = 20;
const INTERNET_ASSETS = 20;
const WALKS = 40;
// Requests in flight at once: the panel shares the service with whoever else uses it.
const PARALLEL = 2;

interface Reached {
  asset: Asset;
  hops: number;
}

/** A finding the internet reaches: from which internet-facing asset, on which service, how far. */
interface Exposed {
  finding: Finding;
  asset: Asset;
  from: Asset;
  /** The service the walk was on; null for an internet-facing asset's own finding. */
  service: Service | null;
  hops: number;
}

interface Exposure {
  exposed: Exposed[];
  /** Internet-facing assets in all (the panel walks from the first INTERNET_ASSETS). */
  internet: number;
  /** Some walks were left out (more assets, services or internet-facing assets than read). */
  partial: boolean;
}

/** `work` on each item, at most PARALLEL at once; the answers in the items' order. */
async function inTurns<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const answers: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      answers[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, items.length) }, worker));
  return answers;
}

const serviceKey = (service: Pick<Service, 'port' | 'protocol'>) =>
  `${service.port}/${service.protocol}`;

/**
 * The open critical and high findings on assets that an internet-facing asset (tagged
 * `internet`) reaches on one of the finding's asset's services: for each service (port and
 * protocol) of the findings' assets, `/reachable` from each internet-facing asset, walking the
 * relations that let that port and protocol through. An internet-facing asset's own findings
 * are exposed too (0 hops).
 */
async function readExposure(): Promise<Exposure> {
  const [findings, internet] = await Promise.all([
    get<Finding[]>(
      `/api/findings${query({ status: 'open', severity: 'critical,high', sort: '-score', limit: FINDINGS })}`,
    ),
    get<{ assets: Asset[]; total: number }>(
      `/api/assets${query({ tag: [INTERNET_TAG], limit: INTERNET_ASSETS })}`,
    ),
  ]);
  const sources = internet.assets;
  if (findings.length === 0 || sources.length === 0)
    return { exposed: [], internet: internet.total, partial: false };

  // The findings' assets, for their services (an asset deleted meanwhile is left out).
  const assetIds = [...new Set(findings.map((finding) => finding.assetId))];
  const read = await inTurns(assetIds.slice(0, EXPOSED_ASSETS), (id) =>
    get<Asset>(`/api/assets/${enc(id)}`).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }),
  );
  const assets = new Map(read.flatMap((asset) => (asset ? [[asset.id, asset] as const] : [])));

  // Each service of those assets once, the highest-scored findings' first; a walk per service
  // and internet-facing asset.
  const services = new Map<string, Service>();
  for (const asset of assets.values()) {
    for (const service of asset.services) services.set(serviceKey(service), service);
  }
  const walks = [...services.values()].flatMap((service) =>
    sources.map((from) => ({ from, service })),
  );
  const answers = await inTurns(walks.slice(0, WALKS), ({ from, service }) =>
    get<Reached[]>(
      `/api/assets/${enc(from.id)}/reachable${query({ port: service.port, protocol: service.protocol })}`,
    ),
  );

  // Per asset, the shortest walk that reached it on one of its own services.
  const best = new Map<string, Omit<Exposed, 'finding' | 'asset'>>();
  const keep = (assetId: string, found: Omit<Exposed, 'finding' | 'asset'>) => {
    const known = best.get(assetId);
    if (!known || found.hops < known.hops) best.set(assetId, found);
  };
  for (const from of sources)
    if (assets.has(from.id)) keep(from.id, { from, service: null, hops: 0 });
  answers.forEach((reached, index) => {
    const { from, service } = walks[index];
    for (const { asset, hops } of reached) {
      const target = assets.get(asset.id);
      if (target?.services.some((own) => serviceKey(own) === serviceKey(service)))
        keep(asset.id, { from, service, hops });
    }
  });
  const exposed = findings.flatMap((finding) => {
    const asset = assets.get(finding.assetId);
    const walk = best.get(finding.assetId);
    return asset && walk ? [{ finding, asset, ...walk }] : [];
  });
  const partial =
    assetIds.length > EXPOSED_ASSETS ||
    walks.length > WALKS ||
    internet.total > sources.length ||
    findings.length === FINDINGS;
  return { exposed, internet: internet.total, partial };
}

/**
 * Which open critical and high findings the internet can reach. `start`: false until the
 * dashboard's other panels have their data, so that its requests (a few, then one per service
 * and internet-facing asset) never delay them.
 */
export function ExposurePanel({ start }: { start: boolean }) {
  const exposure = useAsync(() => (start ? readExposure() : Promise.resolve(null)), [start]);
  const data = exposure.data;
  return (
    <section class="panel exposure" aria-labelledby="exposure-heading" aria-busy={!data}>
      <h2 id="exposure-heading">
        <a href={`/assets${query({ tag: [INTERNET_TAG] })}`}>Reachable from the internet</a>
      </h2>
      <ErrorMessage error={exposure.error} />
      {!data && !exposure.error && <p class="notice">Looking for exposed findings…</p>}
      {data && data.internet === 0 && (
        <p class="notice">
          No asset is tagged <span class="tag">{INTERNET_TAG}</span>: tag the assets that face the
          internet to see which critical and high findings they reach.
        </p>
      )}
      {data && data.internet > 0 && data.exposed.length === 0 && (
        <p class="notice">
          No open critical or high finding is reachable from the {data.internet} internet-facing
          asset{data.internet === 1 ? '' : 's'}.
        </p>
      )}
      {data && data.exposed.length > 0 && (
        <div class="table-wrap">
          <table class="exposure-table">
            <caption class="visually-hidden">
              Open critical and high findings reachable from an internet-facing asset
            </caption>
            <thead>
              <tr>
                <th scope="col">Finding</th>
                <th scope="col">Asset</th>
                <th scope="col">Service</th>
                <th scope="col">From</th>
              </tr>
            </thead>
            <tbody>
              {data.exposed.map(({ finding, asset, from, service, hops }) => (
                <tr key={finding.id} data-severity={finding.severity}>
                  <td>
                    <SeverityBadge severity={finding.severity} score={finding.score} />{' '}
                    <a href={`/findings${query({ vulnId: finding.vulnId, status: 'open' })}`}>
                      {finding.vulnId}
                    </a>
                  </td>
                  <td>
                    <a href={`/assets/${enc(asset.id)}`}>{asset.name}</a>
                  </td>
                  <td class="mono">{service ? serviceKey(service) : '—'}</td>
                  <td>
                    {hops === 0 ? (
                      'faces the internet'
                    ) : (
                      <>
                        <a href={`/assets/${enc(from.id)}`}>{from.name}</a>, {hops} hop
                        {hops === 1 ? '' : 's'}
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data?.partial && (
        <p class="hint">
          Read within limits: the {FINDINGS} highest-scored findings, on their first{' '}
          {EXPOSED_ASSETS} assets, from the first {INTERNET_ASSETS} internet-facing assets, in at
          most {WALKS} walks.
        </p>
      )}
    </section>
  );
}

import { useState } from 'preact/hooks';
import {
  ApiError,
  del,
  get,
  query,
  type Asset,
  type GraphAnswer,
  type Relation,
  type User,
} from '../api';
import { navigate } from '../router';
import { ErrorMessage, RiskBadge, formatTime, useAsync, useTitle } from '../ui';
import { AssetForm } from './asset-form';
import { ChangeHistory } from './change-list';
import { AssetFindings } from './finding-list';

type Shown =
  | 'name'
  | 'ip'
  | 'addresses'
  | 'macAddresses'
  | 'hostnames'
  | 'type'
  | 'vendor'
  | 'model'
  | 'site'
  | 'os_version'
  | 'origin'
  | 'sources'
  | 'firstSeenAt'
  | 'lastSeenAt'
  | 'createdAt'
  | 'updatedAt';

const FIELDS: [Shown, string][] = [
  ['ip', 'IP address'],
  ['addresses', 'Addresses'],
  ['macAddresses', 'MAC addresses'],
  ['hostnames', 'Host names'],
  ['type', 'Type'],
  ['vendor', 'Vendor'],
  ['model', 'Model'],
  ['site', 'Site'],
  ['os_version', 'OS version'],
  ['origin', 'Origin'],
  ['sources', 'Reported by'],
  ['firstSeenAt', 'First seen'],
  ['lastSeenAt', 'Last seen'],
  ['createdAt', 'Created'],
  ['updatedAt', 'Updated'],
];

/** A container image (Trivy's artifact) has no address, vendor or model: its image and OS. */
const IMAGE_TYPE = 'container-image';
const IMAGE_FIELDS: [Shown, string][] = [
  ['name', 'Image'],
  ['os_version', 'OS'],
  ...FIELDS.filter(
    ([key]) =>
      !['ip', 'addresses', 'macAddresses', 'hostnames', 'vendor', 'model', 'os_version'].includes(
        key,
      ),
  ),
];

function fieldsOf(asset: Asset): [Shown, string][] {
  return asset.type === IMAGE_TYPE ? IMAGE_FIELDS : FIELDS;
}

function fieldText(asset: Asset, key: Shown): string {
  const value = asset[key];
  if (value === null || value === undefined || (Array.isArray(value) && value.length === 0))
    return '—';
  if (Array.isArray(value)) return value.join(', ');
  if (key.endsWith('At')) return formatTime(value);
  return String(value);
}

export function AssetPage({ id, user }: { id: string; user: User }) {
  const path = `/api/assets/${encodeURIComponent(id)}`;
  const asset = useAsync(() => get<Asset>(path), [id]);
  const relations = useAsync(async () => {
    const [list, graph] = await Promise.all([
      get<Relation[]>(`/api/relations${query({ assetId: id })}`),
      get<GraphAnswer>(`${path}/graph`).catch((): GraphAnswer => ({ assets: [], relations: [] })),
    ]);
    return { list, names: new Map(graph.assets.map((one) => [one.id, one.name])) };
  }, [id]);
  // Moves on each save, for the history to show the change just made.
  const [version, setVersion] = useState(0);
  const [editing, setEditing] = useState(false);
  const [deleteError, setDeleteError] = useState<unknown>(null);
  useTitle(asset.data?.name ?? 'Asset');

  if (asset.error) {
    return (
      <>
        <h1 tabIndex={-1}>Asset</h1>
        <ErrorMessage error={asset.error} />
        <p>
          <a href="/assets">Back to the inventory</a>
        </p>
        {/* A deleted asset's history is still kept: who deleted it, and when. */}
        {asset.error instanceof ApiError && asset.error.status === 404 && (
          <section aria-labelledby="history">
            <ChangeHistory
              path={`${path}/changes`}
              quietWhenMissing
              heading={<h2 id="history">Change history</h2>}
            />
          </section>
        )}
      </>
    );
  }
  if (!asset.data) return <p class="loading">Loading…</p>;
  const current = asset.data;
  const canEdit = user.role !== 'viewer';

  const remove = async () => {
    if (!confirm(`Delete ${current.name}? Its vulnerabilities, services and relations go with it.`))
      return;
    try {
      await del(path);
      navigate('/assets');
    } catch (failure) {
      setDeleteError(failure);
    }
  };

  return (
    <>
      <p class="crumbs">
        <a href="/assets">Inventory</a> ›
      </p>
      <div class="page-head">
        <h1 tabIndex={-1}>
          {current.name} <RiskBadge score={current.risk_score} />
        </h1>
        <div class="actions">
          <a class="button secondary" href={`/map${query({ asset: current.id })}`}>
            Show on the map
          </a>
          {canEdit && !editing && (
            <>
              <button type="button" onClick={() => setEditing(true)}>
                Edit
              </button>
              <button type="button" class="danger" onClick={() => void remove()}>
                Delete
              </button>
            </>
          )}
        </div>
      </div>
      <ErrorMessage error={deleteError} />
      {editing ? (
        <section class="card" aria-labelledby="edit-asset">
          <h2 id="edit-asset">Edit asset</h2>
          <AssetForm
            asset={current}
            onCancel={() => setEditing(false)}
            onSaved={() => {
              setEditing(false);
              asset.reload();
              setVersion((value) => value + 1);
            }}
          />
        </section>
      ) : (
        <dl class="fields">
          <div>
            <dt>Id</dt>
            <dd class="mono">{current.id}</dd>
          </div>
          <div>
            <dt>Tags</dt>
            <dd class="tags">
              {current.tags.length === 0
                ? '—'
                : current.tags.map((tag) => (
                    // Each opens the inventory of the assets holding it.
                    <a key={tag} class="tag" href={`/assets${query({ tag: [tag] })}`}>
                      {tag}
                    </a>
                  ))}
            </dd>
          </div>
          {fieldsOf(current).map(([key, label]) => (
            <div key={key}>
              <dt>{label}</dt>
              <dd>{fieldText(current, key)}</dd>
            </div>
          ))}
        </dl>
      )}

      <section aria-labelledby="services">
        <h2 id="services">Services ({current.services.length})</h2>
        {current.services.length === 0 ? (
          <p>No services recorded.</p>
        ) : (
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Port</th>
                  <th scope="col">Protocol</th>
                  <th scope="col">Name</th>
                  <th scope="col">Product</th>
                  <th scope="col">Version</th>
                </tr>
              </thead>
              <tbody>
                {current.services.map((service) => (
                  <tr key={`${service.port}/${service.protocol}`}>
                    <td class="mono">{service.port}</td>
                    <td>{service.protocol}</td>
                    <td>{service.name ?? ''}</td>
                    <td>{service.product ?? ''}</td>
                    <td>{service.version ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section aria-labelledby="findings">
        <h2 id="findings">Findings</h2>
        <AssetFindings assetId={current.id} canTriage={canEdit} version={version} />
      </section>

      <section aria-labelledby="relations">
        <h2 id="relations">Relations</h2>
        <ErrorMessage error={relations.error} />
        {relations.data &&
          (relations.data.list.length === 0 ? (
            <p>No relations.</p>
          ) : (
            <ul class="relations">
              {relations.data.list.map((relation) => {
                const outgoing = relation.sourceAssetId === current.id;
                const other = outgoing ? relation.targetAssetId : relation.sourceAssetId;
                const arrow = relation.direction === 'bi' ? '↔' : outgoing ? '→' : '←';
                return (
                  <li key={relation.id}>
                    <span
                      aria-label={
                        relation.direction === 'bi' ? 'both ways' : outgoing ? 'to' : 'from'
                      }
                    >
                      {arrow}
                    </span>{' '}
                    <a href={`/assets/${encodeURIComponent(other)}`}>
                      {relations.data!.names.get(other) ?? other}
                    </a>{' '}
                    <span class="tag">{relation.type}</span>
                    {relation.protocol && <span class="tag">{relation.protocol}</span>}
                    {relation.toPorts && <span class="tag mono">ports {relation.toPorts}</span>}
                  </li>
                );
              })}
            </ul>
          ))}
      </section>

      <section aria-labelledby="history">
        <h2 id="history">Change history</h2>
        <ChangeHistory path={`${path}/changes`} version={version} />
      </section>
    </>
  );
}

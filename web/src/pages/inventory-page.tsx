import { useEffect, useState } from 'preact/hooks';
import { query, request, spacedValues, type Asset, type User } from '../api';
import { navigate, useLocation } from '../router';
import { ErrorMessage, ExportButton, Field, Pager, RiskBadge, useAsync, useTitle } from '../ui';
import { AssetForm } from './asset-form';
import { MergeConfirm } from './merge-confirm';

const PAGE_SIZE = 50;
const FILTERS = ['search', 'type', 'site', 'source', 'port', 'cidr', 'tag'] as const;
type Filter = (typeof FILTERS)[number];
const NO_FILTERS = Object.fromEntries(FILTERS.map((name) => [name, ''])) as Record<Filter, string>;

/**
 * The filters as the API and the address take them: the tags typed (separated by spaces) as
 * the `tag` parameter repeated, an asset holding them all.
 */
const apiFilters = (filters: Record<Filter, string>) => ({
  ...filters,
  tag: spacedValues(filters.tag),
});

const COLUMNS: { key: string; label: string; sortable: boolean }[] = [
  { key: 'risk_score', label: 'Risk', sortable: true },
  { key: 'name', label: 'Name', sortable: true },
  { key: 'ip', label: 'IP', sortable: true },
  { key: 'type', label: 'Type', sortable: true },
  { key: 'vendor', label: 'Vendor', sortable: true },
  { key: 'site', label: 'Site', sortable: true },
  { key: 'services', label: 'Services', sortable: false },
  { key: 'updatedAt', label: 'Updated', sortable: true },
];
// Last, so that the columns before keep their places.
const SELECT_COLUMN = { key: 'select', label: 'Merge', sortable: false };

export function InventoryPage({ user }: { user: User }) {
  useTitle('Inventory');
  const { params } = useLocation();
  const filters = Object.fromEntries(
    FILTERS.map((name) => [
      name,
      name === 'tag' ? params.getAll(name).join(' ') : (params.get(name) ?? ''),
    ]),
  ) as Record<Filter, string>;
  const sort = params.get('sort') ?? 'name';
  const page = Math.max(1, Number(params.get('page') ?? '1') || 1);
  const [draft, setDraft] = useState(filters);
  const [creating, setCreating] = useState(false);
  // The assets picked for a merge, in the order they were picked (kept across pages).
  const [selected, setSelected] = useState<Asset[]>([]);
  const [merging, setMerging] = useState(false);

  // The URL holds the list's state, so back/forward and reloads keep it.
  const update = (changes: Record<string, string>) => {
    const next = new URLSearchParams(location.search);
    for (const [key, value] of Object.entries(changes)) {
      if (key === 'tag') {
        next.delete(key);
        for (const tag of spacedValues(value)) next.append(key, tag);
      } else if (value === '') next.delete(key);
      else next.set(key, value);
    }
    const text = next.toString();
    navigate(`/assets${text ? `?${text}` : ''}`, true);
  };

  // Typing in the search box filters after a short pause rather than on every key.
  useEffect(() => {
    if (draft.search === filters.search) return;
    const timer = setTimeout(() => update({ search: draft.search, page: '' }), 250);
    return () => clearTimeout(timer);
  }, [draft.search]);

  const key = `${FILTERS.map((name) => filters[name]).join('\u0000')}|${sort}|${page}`;
  const list = useAsync(async () => {
    const answer = await request<{ assets: Asset[]; total: number }>(
      'GET',
      `/api/assets${query({ ...apiFilters(filters), sort, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE })}`,
    );
    return answer.body;
  }, [key]);

  const applyFilters = (event: Event) => {
    event.preventDefault();
    update({ ...draft, page: '' });
  };
  const clearFilters = () => {
    setDraft(NO_FILTERS);
    navigate('/assets', true);
  };

  const sortBy = (column: string) => {
    const next = sort === column ? `-${column}` : column;
    update({ sort: next, page: '' });
  };

  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const first = total === 0 ? 0 : (page - 1) * PAGE_SIZE + 1;
  const last = Math.min(total, page * PAGE_SIZE);
  const canEdit = user.role !== 'viewer';
  const columns = canEdit ? [...COLUMNS, SELECT_COLUMN] : COLUMNS;
  const isSelected = (asset: Asset) => selected.some((one) => one.id === asset.id);
  const toggle = (asset: Asset) => {
    setMerging(false);
    setSelected(
      isSelected(asset) ? selected.filter((one) => one.id !== asset.id) : [...selected, asset],
    );
  };

  return (
    <>
      <div class="page-head">
        <h1 tabIndex={-1}>Inventory</h1>
        <div class="actions">
          <ExportButton
            path="/api/assets/export"
            name="assets"
            params={{ ...apiFilters(filters), sort }}
          />
          {canEdit && !creating && (
            <button type="button" onClick={() => setCreating(true)}>
              New asset
            </button>
          )}
        </div>
      </div>
      {creating && (
        <section class="card" aria-labelledby="new-asset">
          <h2 id="new-asset">New asset</h2>
          <AssetForm
            onCancel={() => setCreating(false)}
            onSaved={(asset) => navigate(`/assets/${encodeURIComponent(asset.id)}`)}
          />
        </section>
      )}
      <form class="filters" role="search" onSubmit={applyFilters}>
        <Field label="Search">
          <input
            type="search"
            name="search"
            placeholder="name, IP, vendor, model, site…"
            value={draft.search}
            onInput={(event) => setDraft({ ...draft, search: event.currentTarget.value })}
          />
        </Field>
        {(['type', 'site', 'source'] as const).map((name) => (
          <Field key={name} label={name[0].toUpperCase() + name.slice(1)}>
            <input
              name={name}
              value={draft[name]}
              onInput={(event) => setDraft({ ...draft, [name]: event.currentTarget.value })}
            />
          </Field>
        ))}
        <Field label="Port">
          <input
            name="port"
            inputMode="numeric"
            value={draft.port}
            onInput={(event) => setDraft({ ...draft, port: event.currentTarget.value })}
          />
        </Field>
        <Field label="CIDR">
          <input
            name="cidr"
            placeholder="10.20.0.0/16"
            value={draft.cidr}
            onInput={(event) => setDraft({ ...draft, cidr: event.currentTarget.value })}
          />
        </Field>
        <Field label="Tags" hint="separated by spaces; assets holding them all">
          <input
            name="tag"
            placeholder="internet"
            value={draft.tag}
            onInput={(event) => setDraft({ ...draft, tag: event.currentTarget.value })}
          />
        </Field>
        <div class="filter-actions">
          <button type="submit">Filter</button>
          <button type="button" class="secondary" onClick={clearFilters}>
            Clear
          </button>
        </div>
      </form>
      <ErrorMessage error={list.error} />
      <p class="summary" aria-live="polite">
        {list.loading
          ? 'Loading…'
          : total === 0
            ? 'No assets match.'
            : `Assets ${first}–${last} of ${total}`}
      </p>
      {canEdit && selected.length > 0 && (
        <div class="selection" role="group" aria-label="Selected assets">
          <span>
            {selected.length} selected: {selected.map((one) => one.name).join(', ')}
          </span>
          <button type="button" disabled={selected.length < 2} onClick={() => setMerging(true)}>
            Merge selected…
          </button>
          <button
            type="button"
            class="secondary"
            onClick={() => {
              setSelected([]);
              setMerging(false);
            }}
          >
            Clear selection
          </button>
        </div>
      )}
      {merging && selected.length >= 2 && (
        <MergeConfirm
          assets={selected}
          onCancel={() => setMerging(false)}
          onMerged={(asset) => navigate(`/assets/${encodeURIComponent(asset.id)}`)}
        />
      )}
      <div class="table-wrap">
        <table class="assets" aria-busy={list.loading}>
          <caption class="visually-hidden">Assets, sorted by {sort.replace(/^-/, '')}</caption>
          <thead>
            <tr>
              {columns.map((column) => {
                const direction =
                  sort === column.key
                    ? 'ascending'
                    : sort === `-${column.key}`
                      ? 'descending'
                      : undefined;
                return (
                  <th key={column.key} scope="col" aria-sort={direction}>
                    {column.sortable ? (
                      <button type="button" class="sort" onClick={() => sortBy(column.key)}>
                        {column.label}
                        <span aria-hidden="true">
                          {direction === 'ascending'
                            ? ' ▲'
                            : direction === 'descending'
                              ? ' ▼'
                              : ''}
                        </span>
                      </button>
                    ) : (
                      column.label
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {(list.data?.assets ?? []).map((asset) => (
              <tr key={asset.id}>
                <td>
                  <RiskBadge score={asset.risk_score} />
                </td>
                <td>
                  <a href={`/assets/${encodeURIComponent(asset.id)}`}>{asset.name}</a>
                </td>
                <td class="mono">{asset.ip ?? ''}</td>
                <td>{asset.type ?? ''}</td>
                <td>{asset.vendor ?? ''}</td>
                <td>{asset.site ?? ''}</td>
                <td class="mono">
                  {asset.services
                    .slice(0, 4)
                    .map((service) => `${service.port}/${service.protocol}`)
                    .join(', ')}
                  {asset.services.length > 4 ? ` +${asset.services.length - 4}` : ''}
                </td>
                <td>{new Date(asset.updatedAt).toLocaleDateString()}</td>
                {canEdit && (
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Select ${asset.name} for a merge`}
                      checked={isSelected(asset)}
                      onChange={() => toggle(asset)}
                    />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager page={page} pages={pages} onPage={(next) => update({ page: String(next) })} />
    </>
  );
}

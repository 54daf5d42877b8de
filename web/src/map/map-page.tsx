import { useEffect, useRef, useState } from 'preact/hooks';
import {
  get,
  post,
  put,
  query,
  request,
  type Asset,
  type Diagram,
  type GraphAnswer,
  type Relation,
  type User,
} from '../api';
import { navigate, useLocation } from '../router';
import { ErrorMessage, Field, RiskBadge, useTitle } from '../ui';
import { GraphView, type MapNode } from './graph-view';
import { placeNew, tidyStep } from './layout';

const PAGE = 1000;
/** A diagram this small is loaded asset by asset; a larger one from the whole inventory. */
const FETCH_ONE_BY_ONE = 40;

interface Reached {
  asset: Asset;
  hops: number;
}

export function MapPage({ user }: { user: User }) {
  useTitle('Map');
  const { params } = useLocation();
  const canvas = useRef<HTMLCanvasElement>(null);
  const view = useRef<GraphView | null>(null);
  const [, setVersion] = useState(0);
  const bump = () => setVersion((value) => value + 1);
  const [selected, setSelected] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const [diagram, setDiagram] = useState<Diagram | null>(null);
  const [reached, setReached] = useState<Reached[] | null>(null);
  const [pathAssets, setPathAssets] = useState<Asset[] | null>(null);

  useEffect(() => {
    const graph = new GraphView(canvas.current!, { select: setSelected, moved: bump });
    view.current = graph;
    const assetId = params.get('asset');
    const diagramId = params.get('diagram');
    if (diagramId) void task('Opening the diagram…', () => openDiagram(diagramId));
    else if (assetId) void task('Loading the neighbourhood…', () => expand(assetId, 1, true));
    return () => graph.destroy();
  }, []);

  const task = async (message: string, work: () => Promise<string | void>) => {
    setBusy(true);
    setError(null);
    setStatus(message);
    try {
      setStatus((await work()) ?? '');
    } catch (failure) {
      setError(failure);
      setStatus('');
    } finally {
      setBusy(false);
    }
  };

  const add = (assets: Asset[], relations: Relation[]) => {
    const graph = view.current!;
    for (const asset of assets) {
      const known = graph.nodes.get(asset.id);
      if (known) known.asset = asset;
      else graph.nodes.set(asset.id, { asset, x: NaN, y: NaN });
    }
    for (const relation of relations) graph.edges.set(relation.id, relation);
    placeNew(graph.nodes, graph.edges.values());
    graph.render();
    bump();
  };

  const clearMarks = () => {
    const graph = view.current!;
    graph.highlight = { nodes: new Set(), edges: new Set() };
    setReached(null);
    setPathAssets(null);
    graph.render();
  };

  const expand = async (id: string, depth: number, first = false) => {
    const answer = await get<GraphAnswer>(
      `/api/assets/${encodeURIComponent(id)}/graph${query({ depth })}`,
    );
    add(answer.assets, answer.relations);
    const graph = view.current!;
    if (first) {
      graph.fit();
      graph.centreOn(id);
      graph.select(id);
    }
    return `${answer.assets.length} assets within ${depth} hop${depth > 1 ? 's' : ''}.`;
  };

  const allAssets = async (): Promise<Asset[]> => {
    const assets: Asset[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await get<{ assets: Asset[]; total: number }>(
        `/api/assets${query({ limit: PAGE, offset, sort: 'createdAt' })}`,
      );
      assets.push(...page.assets);
      if (page.assets.length < PAGE || assets.length >= page.total) return assets;
    }
  };

  const loadAll = async () => {
    const [assets, relations] = await Promise.all([allAssets(), get<Relation[]>('/api/relations')]);
    add(assets, relations);
    view.current!.fit();
    return `${assets.length} assets and ${relations.length} relations on the map.`;
  };

  const openDiagram = async (id: string) => {
    const opened = await get<Diagram>(`/api/diagrams/${encodeURIComponent(id)}`);
    const graph = view.current!;
    graph.nodes.clear();
    graph.edges.clear();
    clearMarks();
    const nodes = opened.content?.nodes ?? [];
    const edgeIds = new Set((opened.content?.edges ?? []).map((edge) => edge.relationId));
    const wanted = new Set(nodes.map((node) => node.assetId));
    let assets: Asset[];
    if (wanted.size <= FETCH_ONE_BY_ONE) {
      // An asset deleted since the layout was saved is left out.
      const found = await Promise.all(
        [...wanted].map((assetId) =>
          get<Asset>(`/api/assets/${encodeURIComponent(assetId)}`).catch(() => null),
        ),
      );
      assets = found.filter((asset): asset is Asset => asset !== null);
    } else {
      assets = (await allAssets()).filter((asset) => wanted.has(asset.id));
    }
    const relations =
      edgeIds.size === 0
        ? []
        : (await get<Relation[]>('/api/relations')).filter((r) => edgeIds.has(r.id));
    const byId = new Map(assets.map((asset) => [asset.id, asset]));
    for (const node of nodes) {
      const asset = byId.get(node.assetId);
      if (asset) graph.nodes.set(asset.id, { asset, x: node.x, y: node.y });
    }
    add([], relations);
    graph.fit();
    setDiagram(opened);
    const missing = wanted.size - byId.size;
    return `Opened ${opened.name}: ${byId.size} assets${missing ? `, ${missing} no longer in the inventory` : ''}.`;
  };

  const content = () => {
    const graph = view.current!;
    return {
      nodes: [...graph.nodes.values()].map((node) => ({
        assetId: node.asset.id,
        x: Math.round(node.x),
        y: Math.round(node.y),
      })),
      edges: [...graph.edges.keys()].map((relationId) => ({ relationId })),
    };
  };

  const tidy = () => {
    const graph = view.current!;
    let heat = 40;
    // A few steps a frame, so the page stays responsive while it settles.
    const step = () => {
      const started = performance.now();
      while (heat > 1 && performance.now() - started < 12) {
        tidyStep(graph.nodes, graph.edges.values(), heat);
        heat *= 0.96;
      }
      graph.render();
      if (heat > 1) requestAnimationFrame(step);
      else bump();
    };
    requestAnimationFrame(step);
  };

  const graph = view.current;
  const node: MapNode | undefined = selected && graph ? graph.nodes.get(selected) : undefined;
  const canSave = user.role !== 'viewer';
  const mayOverwrite = diagram !== null && (diagram.ownerId === user.id || user.role === 'admin');

  return (
    <>
      <div class="page-head">
        <h1 tabIndex={-1}>{diagram ? `Map: ${diagram.name}` : 'Map'}</h1>
        <div class="actions">
          <button
            type="button"
            class="secondary"
            disabled={busy}
            onClick={() => void task('Loading the inventory…', loadAll)}
          >
            Load the whole inventory
          </button>
          <button
            type="button"
            class="secondary"
            disabled={busy || !graph?.nodes.size}
            onClick={tidy}
          >
            Tidy the layout
          </button>
          <button
            type="button"
            class="secondary"
            onClick={() => {
              graph?.nodes.clear();
              graph?.edges.clear();
              graph?.select(null);
              clearMarks();
              setDiagram(null);
              navigate('/map', true);
              bump();
            }}
          >
            Clear
          </button>
        </div>
      </div>
      <ErrorMessage error={error} />
      <p class="summary" role="status" aria-live="polite">
        {status ||
          `${graph?.nodes.size ?? 0} assets and ${graph?.edges.size ?? 0} relations on the map.`}
      </p>
      <div class="map-layout">
        <div class="map-canvas-wrap">
          <canvas
            ref={canvas}
            tabIndex={0}
            aria-label="Map of assets. Drag or use the arrow keys to pan, the wheel or + and - to zoom, 0 to fit; click a node to select it."
          />
          <div class="map-zoom">
            <button
              type="button"
              class="secondary"
              aria-label="Zoom in"
              onClick={() => graph?.zoomBy(1.25)}
            >
              +
            </button>
            <button
              type="button"
              class="secondary"
              aria-label="Zoom out"
              onClick={() => graph?.zoomBy(0.8)}
            >
              −
            </button>
            <button
              type="button"
              class="secondary"
              aria-label="Fit the map"
              onClick={() => graph?.fit()}
            >
              ⤢
            </button>
          </div>
          <p class="map-legend">
            Risk: <span class="risk risk-low">low</span>{' '}
            <span class="risk risk-medium">medium</span> <span class="risk risk-high">high</span>{' '}
            <span class="risk risk-none">none</span> · arrows: one-way
          </p>
        </div>
        <aside class="map-side" aria-label="Map tools">
          <FindAsset
            onMap={graph?.nodes}
            onPick={(asset, onMapAlready) => {
              if (onMapAlready) {
                graph!.select(asset.id);
                graph!.centreOn(asset.id);
              } else {
                void task('Loading the neighbourhood…', async () => {
                  const message = await expand(asset.id, 1);
                  graph!.select(asset.id);
                  graph!.centreOn(asset.id);
                  return message;
                });
              }
            }}
          />
          {node && graph && (
            <Selected
              node={node}
              graph={graph}
              busy={busy}
              onExpand={(depth) => void task('Expanding…', () => expand(node.asset.id, depth))}
              onRemove={() => {
                graph.nodes.delete(node.asset.id);
                for (const [id, edge] of graph.edges) {
                  if (edge.sourceAssetId === node.asset.id || edge.targetAssetId === node.asset.id)
                    graph.edges.delete(id);
                }
                graph.select(null);
                bump();
              }}
              onPath={(to) =>
                void task('Looking for a path…', async () => {
                  clearMarks();
                  const answer = await get<GraphAnswer>(
                    `/api/graph/path${query({ from: node.asset.id, to })}`,
                  );
                  add(answer.assets, answer.relations);
                  graph.highlight = {
                    nodes: new Set(answer.assets.map((asset) => asset.id)),
                    edges: new Set(answer.relations.map((relation) => relation.id)),
                  };
                  setPathAssets(answer.assets);
                  graph.render();
                  return `A path of ${answer.relations.length} hop${answer.relations.length === 1 ? '' : 's'} is highlighted.`;
                })
              }
              onReachable={(port, protocol) =>
                void task('Looking for reachable assets…', async () => {
                  clearMarks();
                  const answer = await get<Reached[]>(
                    `/api/assets/${encodeURIComponent(node.asset.id)}/reachable${query({ port, protocol })}`,
                  );
                  add(
                    answer.map((entry) => entry.asset),
                    [],
                  );
                  graph.highlight = {
                    nodes: new Set(answer.map((entry) => entry.asset.id)),
                    edges: new Set(),
                  };
                  setReached(answer);
                  graph.render();
                  return `${answer.length} asset${answer.length === 1 ? '' : 's'} reachable on port ${port}${protocol ? `/${protocol}` : ''}, highlighted.`;
                })
              }
            />
          )}
          {(reached || pathAssets) && (
            <section class="card" aria-labelledby="marked">
              <h2 id="marked">{reached ? 'Reachable from here' : 'Path'}</h2>
              <ol>
                {(reached ?? pathAssets!.map((asset, hops) => ({ asset, hops }))).map((entry) => (
                  <li key={entry.asset.id}>
                    <a href={`/assets/${encodeURIComponent(entry.asset.id)}`}>{entry.asset.name}</a>{' '}
                    <RiskBadge score={entry.asset.risk_score} />
                    {reached && ` ${entry.hops} hop${entry.hops === 1 ? '' : 's'}`}
                  </li>
                ))}
              </ol>
              <button type="button" class="secondary" onClick={clearMarks}>
                Clear the highlight
              </button>
            </section>
          )}
          {canSave && (
            <SaveDiagram
              diagram={diagram}
              mayOverwrite={mayOverwrite}
              disabled={busy || !graph?.nodes.size}
              onSave={(fields, asNew) =>
                void task('Saving…', async () => {
                  const body = { ...fields, content: content() };
                  const saved =
                    asNew || !diagram
                      ? await post<Diagram>('/api/diagrams', body)
                      : await put<Diagram>(`/api/diagrams/${encodeURIComponent(diagram.id)}`, body);
                  setDiagram(saved);
                  navigate(`/map?diagram=${encodeURIComponent(saved.id)}`, true);
                  return `Saved the diagram ${saved.name} (${saved.visibility}).`;
                })
              }
            />
          )}
          <OpenDiagram onOpen={(id) => void task('Opening the diagram…', () => openDiagram(id))} />
        </aside>
      </div>
    </>
  );
}

function FindAsset({
  onMap,
  onPick,
}: {
  onMap: Map<string, MapNode> | undefined;
  onPick: (asset: Asset, onMapAlready: boolean) => void;
}) {
  const [text, setText] = useState('');
  const [found, setFound] = useState<Asset[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const search = async (event: Event) => {
    event.preventDefault();
    setError(null);
    try {
      const answer = await request<{ assets: Asset[] }>(
        'GET',
        `/api/assets${query({ search: text, limit: 8 })}`,
      );
      setFound(answer.body.assets);
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <section class="card" aria-labelledby="find">
      <h2 id="find">Find an asset</h2>
      <form class="row" onSubmit={(event) => void search(event)}>
        <Field label="Name, IP…">
          <input
            type="search"
            value={text}
            onInput={(event) => setText(event.currentTarget.value)}
          />
        </Field>
        <button type="submit" class="field-button">
          Find
        </button>
      </form>
      <ErrorMessage error={error} />
      {found && found.length === 0 && <p>Nothing found.</p>}
      {found && found.length > 0 && (
        <ul class="plain">
          {found.map((asset) => (
            <li key={asset.id}>
              <button
                type="button"
                class="link"
                onClick={() => onPick(asset, onMap?.has(asset.id) ?? false)}
              >
                {asset.name} {asset.ip ? `(${asset.ip})` : ''}
                {onMap?.has(asset.id) ? ' · on the map' : ' · add'}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Selected({
  node,
  graph,
  busy,
  onExpand,
  onRemove,
  onPath,
  onReachable,
}: {
  node: MapNode;
  graph: GraphView;
  busy: boolean;
  onExpand: (depth: number) => void;
  onRemove: () => void;
  onPath: (to: string) => void;
  onReachable: (port: string, protocol: string) => void;
}) {
  const [depth, setDepth] = useState('1');
  const [target, setTarget] = useState('');
  const [port, setPort] = useState('');
  const [protocol, setProtocol] = useState('');
  const asset = node.asset;
  // Path targets: the assets on the map whose name or ip holds what was typed.
  const needle = target.trim().toLowerCase();
  const candidates =
    needle === ''
      ? []
      : [...graph.nodes.values()]
          .filter(
            (other) =>
              other.asset.id !== asset.id &&
              (other.asset.name.toLowerCase().includes(needle) ||
                (other.asset.ip ?? '').includes(needle)),
          )
          .slice(0, 6);
  return (
    <section class="card" aria-labelledby="selected">
      <h2 id="selected">
        {asset.name} <RiskBadge score={asset.risk_score} />
      </h2>
      <p>
        {[asset.ip, asset.type, asset.site].filter(Boolean).join(' · ')}{' '}
        <a href={`/assets/${encodeURIComponent(asset.id)}`}>Open the asset</a>
      </p>
      <div class="row">
        <Field label="Depth">
          <select value={depth} onChange={(event) => setDepth(event.currentTarget.value)}>
            {[1, 2, 3, 4, 5].map((value) => (
              <option key={value}>{value}</option>
            ))}
          </select>
        </Field>
        <button type="button" disabled={busy} onClick={() => onExpand(Number(depth))}>
          Expand
        </button>
        <button type="button" class="secondary" onClick={onRemove}>
          Remove
        </button>
      </div>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onReachable(port, protocol);
        }}
      >
        <div class="row">
          <Field label="Reachable on port">
            <input
              inputMode="numeric"
              required
              value={port}
              onInput={(event) => setPort(event.currentTarget.value)}
            />
          </Field>
          <Field label="Protocol">
            <input
              value={protocol}
              placeholder="any"
              onInput={(event) => setProtocol(event.currentTarget.value)}
            />
          </Field>
          <button type="submit" disabled={busy}>
            Show
          </button>
        </div>
      </form>
      <Field label="Path to (an asset on the map)">
        <input
          type="search"
          value={target}
          onInput={(event) => setTarget(event.currentTarget.value)}
        />
      </Field>
      {candidates.length > 0 && (
        <ul class="plain">
          {candidates.map((other) => (
            <li key={other.asset.id}>
              <button
                type="button"
                class="link"
                disabled={busy}
                onClick={() => onPath(other.asset.id)}
              >
                Path to {other.asset.name}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function SaveDiagram({
  diagram,
  mayOverwrite,
  disabled,
  onSave,
}: {
  diagram: Diagram | null;
  mayOverwrite: boolean;
  disabled: boolean;
  onSave: (
    fields: { name: string; description: string | null; visibility: string },
    asNew: boolean,
  ) => void;
}) {
  const [name, setName] = useState(diagram?.name ?? '');
  const [description, setDescription] = useState(diagram?.description ?? '');
  const [visibility, setVisibility] = useState<string>(diagram?.visibility ?? 'private');
  useEffect(() => {
    setName(diagram?.name ?? '');
    setDescription(diagram?.description ?? '');
    setVisibility(diagram?.visibility ?? 'private');
  }, [diagram?.id]);
  const fields = () => ({ name, description: description === '' ? null : description, visibility });
  return (
    <section class="card" aria-labelledby="save">
      <h2 id="save">Save as a diagram</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onSave(fields(), !mayOverwrite);
        }}
      >
        <Field label="Diagram name">
          <input required value={name} onInput={(event) => setName(event.currentTarget.value)} />
        </Field>
        <Field label="Description">
          <input
            value={description}
            onInput={(event) => setDescription(event.currentTarget.value)}
          />
        </Field>
        <Field label="Visibility">
          <select value={visibility} onChange={(event) => setVisibility(event.currentTarget.value)}>
            <option value="private">private: me and administrators</option>
            <option value="public">public: every signed-in user</option>
          </select>
        </Field>
        <div class="actions">
          <button type="submit" disabled={disabled}>
            {mayOverwrite ? 'Save' : 'Save diagram'}
          </button>
          {mayOverwrite && (
            <button
              type="button"
              class="secondary"
              disabled={disabled}
              onClick={() => onSave(fields(), true)}
            >
              Save as new
            </button>
          )}
        </div>
      </form>
    </section>
  );
}

function OpenDiagram({ onOpen }: { onOpen: (id: string) => void }) {
  const [list, setList] = useState<Diagram[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    get<Diagram[]>('/api/diagrams').then(setList, setError);
  }, []);
  return (
    <section class="card" aria-labelledby="open">
      <h2 id="open">Open a diagram</h2>
      <ErrorMessage error={error} />
      {list?.length === 0 && <p>No diagrams yet.</p>}
      {list && list.length > 0 && (
        <ul class="plain">
          {list.map((diagram) => (
            <li key={diagram.id}>
              <button type="button" class="link" onClick={() => onOpen(diagram.id)}>
                {diagram.name}
              </button>{' '}
              <span class="tag">{diagram.visibility}</span>
            </li>
          ))}
        </ul>
      )}
      <a href="/diagrams">All diagrams</a>
    </section>
  );
}

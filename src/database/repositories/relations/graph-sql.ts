import type { Dialect } from '../../dialect/dialect.js';

/*
 * The graph queries, written once for SQLite and PostgreSQL (only the port-list test differs).
 * Each walk is a recursive CTE of (asset id, hops) rows: UNION drops a row already produced,
 * so a cycle adds each asset at most once per hop count and the walk ends at its depth bound,
 * enforced in the recursive step. Each step looks its relations up by index: the one on
 * (source_asset_id, target_asset_id, type) for the source end, the one on target_asset_id for
 * the other. The walk starts from the assets table, so that an unknown asset yields no row.
 */

/** The asset at the other end of relation `r` from `w.id`. */
const OTHER_END =
  'CASE WHEN r.source_asset_id = w.id THEN r.target_asset_id ELSE r.source_asset_id END';

/** Relations `r` touching `w.id`, whatever their direction. */
const EITHER_WAY = '(r.source_asset_id = w.id OR r.target_asset_id = w.id)';

/** Relations `r` that can be walked from `w.id`: `bi` ones both ways, `mono` ones forwards. */
const FORWARD = `(r.source_asset_id = w.id OR (r.target_asset_id = w.id AND r.direction = 'bi'))`;

/** An (id, hops) row per asset, at the fewest hops the walk reached it. */
const NEAREST = 'SELECT id, MIN(hops) AS hops FROM walk GROUP BY id';

/**
 * The walk of GET /api/assets/:id/graph, as a CTE body: every asset within `:depth` hops of
 * `:start`, walking relations either way (only those of `:type` when `ofType`).
 */
function neighbourhoodWalk(ofType: boolean): string {
  return `SELECT id, 0 FROM assets WHERE id = :start
    UNION
    SELECT ${OTHER_END}, w.hops + 1 FROM walk w JOIN relations r ON ${EITHER_WAY}
    WHERE w.hops < :depth${ofType ? ' AND r.type = :type' : ''}`;
}

/** The assets of the neighbourhood walk, with their hops from `:start` (none: no such asset). */
export const neighbourhoodAssets = (ofType: boolean) =>
  `WITH RECURSIVE walk(id, hops) AS (${neighbourhoodWalk(ofType)}) ${NEAREST}`;

/**
 * The ids of the relations (of `:type` when `ofType`) whose two ends the neighbourhood walk
 * reached. CROSS JOIN keeps SQLite's join order (PostgreSQL plans it as an inner join): from each
 * reached asset to its relations by index, then the other end looked up among the reached. Left
 * to itself, SQLite may try every pair of reached assets on the relations' index instead.
 */
export const neighbourhoodRelations = (ofType: boolean) =>
  `WITH RECURSIVE walk(id, hops) AS (${neighbourhoodWalk(ofType)}),
    near(id) AS (SELECT id FROM walk GROUP BY id)
  SELECT r.id FROM near s CROSS JOIN relations r CROSS JOIN near t
  WHERE r.source_asset_id = s.id AND t.id = r.target_asset_id${ofType ? ' AND r.type = :type' : ''}`;

/** Assets reachable from `:from` in at most `:maxDepth` hops, walking relations forwards. */
const FORWARD_WALK = `SELECT id, 0 FROM assets WHERE id = :from
    UNION
    SELECT ${OTHER_END}, w.hops + 1 FROM walk w JOIN relations r ON ${FORWARD}
    WHERE w.hops < :maxDepth`;

/**
 * The hops of a walk from `:from` to `:to` (no row: none within `:maxDepth`). Both databases
 * produce a recursive CTE's rows level by level and stop at the LIMIT, so that this is the
 * fewest hops found without walking further; were it not the fewest, it is still a bound that
 * PATH_STEPS, given it as `:maxDepth`, finds the shortest walk within.
 */
export const PATH_LENGTH = `WITH RECURSIVE walk(id, hops) AS (${FORWARD_WALK})
  SELECT hops FROM walk WHERE id = :to LIMIT 1`;

/**
 * Every relation on a shortest walk from `:from` to `:to` of at most `:maxDepth` hops, as
 * (relation_id, from_id, to_id, hops: of from_id): the walk forwards from `:from` gives each
 * asset its distance; `back` keeps, from `:to` backwards, the assets one hop nearer at each
 * step; the answer is the walkable relations between two of them one hop apart. No row: no walk.
 */
export const PATH_STEPS = `WITH RECURSIVE
  walk(id, hops) AS (${FORWARD_WALK}),
  reached(id, hops) AS (${NEAREST}),
  back(id, hops) AS (
    SELECT id, hops FROM reached WHERE id = :to
    UNION
    SELECT p.id, p.hops FROM back b
    JOIN relations r
      ON r.target_asset_id = b.id OR (r.source_asset_id = b.id AND r.direction = 'bi')
    JOIN reached p
      ON p.id = CASE WHEN r.target_asset_id = b.id THEN r.source_asset_id ELSE r.target_asset_id END
      AND p.hops = b.hops - 1
  )
SELECT r.id AS relation_id, w.id AS from_id, n.id AS to_id, w.hops AS hops
FROM back w
JOIN relations r ON ${FORWARD}
JOIN back n ON n.id = ${OTHER_END} AND n.hops = w.hops + 1`;

/**
 * Every asset reachable from `:start` in at most `:maxDepth` hops, walking relations in their
 * directions whose to_ports is empty or holds `:port`, and whose protocol is empty or, when
 * `withProtocol`, `:protocol`; `:start` itself at 0 hops (no row: no such asset).
 */
export function reachableAssets(dialect: Dialect, withProtocol: boolean): string {
  // Whether `to_ports` ("22,80-90") holds :port: equal to a listed port or within a listed
  // range, ends included. The lists are validated on every write (digits, commas and dashes
  // only); a stored one that is not so spelled holds no port rather than failing the walk.
  const portHeld = dialect.portListHolds('r.to_ports', 'port');
  const protocol = withProtocol
    ? " AND (r.protocol IS NULL OR r.protocol = '' OR r.protocol = :protocol)"
    : '';
  return `WITH RECURSIVE walk(id, hops) AS (
      SELECT id, 0 FROM assets WHERE id = :start
      UNION
      SELECT ${OTHER_END}, w.hops + 1 FROM walk w JOIN relations r ON ${FORWARD}
      WHERE w.hops < :maxDepth
        AND (r.to_ports IS NULL OR r.to_ports = '' OR ${portHeld})${protocol}
    ) ${NEAREST}`;
}

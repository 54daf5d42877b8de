import type { Relation } from '../api';
import type { MapNode } from './graph-view';

const GOLDEN_ANGLE = Math.PI * (3 - Math.sqrt(5));
const SPACING = 60;

/**
 * Gives positions to nodes that have none (NaN): next to a neighbour already placed, else on a
 * spiral out from the centre, so a loaded inventory starts spread out and evenly.
 */
export function placeNew(nodes: Map<string, MapNode>, edges: Iterable<Relation>): void {
  const neighbours = new Map<string, string[]>();
  for (const edge of edges) {
    (
      neighbours.get(edge.sourceAssetId) ??
      neighbours.set(edge.sourceAssetId, []).get(edge.sourceAssetId)!
    ).push(edge.targetAssetId);
    (
      neighbours.get(edge.targetAssetId) ??
      neighbours.set(edge.targetAssetId, []).get(edge.targetAssetId)!
    ).push(edge.sourceAssetId);
  }
  let placed = 0;
  for (const node of nodes.values()) if (!Number.isNaN(node.x)) placed++;
  let turn = 0;
  for (const node of nodes.values()) {
    if (!Number.isNaN(node.x)) continue;
    const anchor = (neighbours.get(node.asset.id) ?? [])
      .map((id) => nodes.get(id))
      .find((other) => other && !Number.isNaN(other.x));
    if (anchor) {
      const angle = turn++ * GOLDEN_ANGLE;
      const distance = SPACING * (1.5 + (turn % 3) * 0.5);
      node.x = anchor.x + Math.cos(angle) * distance;
      node.y = anchor.y + Math.sin(angle) * distance;
    } else {
      const radius = SPACING * Math.sqrt(placed + 0.5);
      node.x = Math.cos(placed * GOLDEN_ANGLE) * radius;
      node.y = Math.sin(placed * GOLDEN_ANGLE) * radius;
    }
    placed++;
  }
}

/**
 * One step of a force layout: linked nodes pull, near nodes push. Pushes are looked for only in
 * neighbouring grid cells, so a step stays linear in the number of nodes.
 */
export function tidyStep(
  nodes: Map<string, MapNode>,
  edges: Iterable<Relation>,
  heat: number,
): void {
  const cell = SPACING * 2;
  const grid = new Map<string, MapNode[]>();
  const moves = new Map<MapNode, { x: number; y: number }>();
  for (const node of nodes.values()) {
    const key = `${Math.floor(node.x / cell)},${Math.floor(node.y / cell)}`;
    (grid.get(key) ?? grid.set(key, []).get(key)!).push(node);
    moves.set(node, { x: 0, y: 0 });
  }
  for (const node of nodes.values()) {
    const cx = Math.floor(node.x / cell);
    const cy = Math.floor(node.y / cell);
    const move = moves.get(node)!;
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        for (const other of grid.get(`${cx + dx},${cy + dy}`) ?? []) {
          if (other === node) continue;
          let x = node.x - other.x;
          let y = node.y - other.y;
          let distance = Math.hypot(x, y);
          if (distance === 0) {
            x = Math.random() - 0.5;
            y = Math.random() - 0.5;
            distance = 0.01;
          }
          if (distance > cell) continue;
          const push = (SPACING * SPACING) / distance;
          move.x += (x / distance) * push;
          move.y += (y / distance) * push;
        }
      }
    }
  }
  for (const edge of edges) {
    const from = nodes.get(edge.sourceAssetId);
    const to = nodes.get(edge.targetAssetId);
    if (!from || !to) continue;
    const x = to.x - from.x;
    const y = to.y - from.y;
    const distance = Math.max(Math.hypot(x, y), 0.01);
    const pull = (distance * distance) / (SPACING * 1.5);
    const fx = (x / distance) * pull;
    const fy = (y / distance) * pull;
    moves.get(from)!.x += fx;
    moves.get(from)!.y += fy;
    moves.get(to)!.x -= fx;
    moves.get(to)!.y -= fy;
  }
  for (const [node, move] of moves) {
    const length = Math.hypot(move.x, move.y);
    if (length === 0) continue;
    const step = Math.min(length, heat);
    node.x += (move.x / length) * step;
    node.y += (move.y / length) * step;
  }
}

import type { Asset, Relation } from '../api';
import { riskLevel } from '../ui';

export interface MapNode {
  asset: Asset;
  x: number;
  y: number;
}

export interface Highlight {
  nodes: Set<string>;
  edges: Set<string>;
}

const RADIUS = 9;
const COLOURS = { none: '#718096', low: '#2f855a', medium: '#d69e2e', high: '#c53030' } as const;
const EDGE = '#a0aec0';
const EDGE_HIGHLIGHT = '#2b6cb0';
const MIN_SCALE = 0.02;
const MAX_SCALE = 6;
/** Labels are drawn only this close in, and only for so many nodes, to keep frames short. */
const LABEL_SCALE = 0.55;
const MAX_LABELS = 600;
/** How long the view must be still after a pan or zoom before it is drawn in full again. */
const SETTLE_MS = 150;
/** Shapes per drawing step, and the time a frame gives to steps. */
const STEP_SIZE = 500;
/** A map this small (nodes and edges) is drawn at once. */
const IMMEDIATE_LIMIT = 2000;
const FRAME_BUDGET_MS = 12;
const LEVELS = ['none', 'low', 'medium', 'high'] as const;

export interface ViewEvents {
  select(id: string | null): void;
  /** A node was dragged to a new place (the layout changed). */
  moved(): void;
}

/**
 * The map drawn on a canvas: one path per colour for the nodes and one per style for the edges,
 * only what is in view, redrawn once per animation frame when something changed. The DOM never
 * holds a node, so 5,000 of them pan and zoom as smoothly as 50.
 */
export class GraphView {
  nodes = new Map<string, MapNode>();
  edges = new Map<string, Relation>();
  selected: string | null = null;
  highlight: Highlight = { nodes: new Set(), edges: new Set() };
  scale = 1;
  tx = 0;
  ty = 0;
  private readonly context: CanvasRenderingContext2D;
  private frame = 0;
  private width = 0;
  private height = 0;
  private drag: { kind: 'pan' | 'node'; id?: string; x: number; y: number; moved: boolean } | null =
    null;
  private readonly resize: ResizeObserver;
  private readonly abort = new AbortController();
  /** The last full drawing and the view it was drawn at, moved and scaled while panning. */
  private cache = document.createElement('canvas');
  /** Where a drawing in steps goes until it is complete. */
  private back = document.createElement('canvas');
  private cached: { scale: number; tx: number; ty: number } | null = null;
  /** The node being dragged, left out of the cached drawing. */
  private lifted: string | null = null;
  private job: {
    steps: ((context: CanvasRenderingContext2D) => void)[];
    next: number;
    view: { scale: number; tx: number; ty: number };
  } | null = null;
  private settle = 0;
  private quick = false;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly events: ViewEvents,
  ) {
    this.context = canvas.getContext('2d')!;
    this.resize = new ResizeObserver(() => this.measure());
    this.resize.observe(canvas);
    this.measure();
    const signal = this.abort.signal;
    canvas.addEventListener('pointerdown', (event) => this.pointerDown(event), { signal });
    canvas.addEventListener('pointermove', (event) => this.pointerMove(event), { signal });
    canvas.addEventListener('pointerup', (event) => this.pointerUp(event), { signal });
    canvas.addEventListener('pointercancel', () => (this.drag = null), { signal });
    canvas.addEventListener('wheel', (event) => this.wheel(event), { signal, passive: false });
    canvas.addEventListener('keydown', (event) => this.key(event), { signal });
  }

  destroy(): void {
    this.abort.abort();
    this.resize.disconnect();
    cancelAnimationFrame(this.frame);
    clearTimeout(this.settle);
  }

  /**
   * Asks for a redraw on the next frame (several asks in one frame draw once). A `quick` one,
   * for a pan or zoom, moves the last drawing instead, and the full drawing follows once the
   * view has been still for a moment: panning 5,000 nodes costs one image copy a frame.
   */
  render(quick = false): void {
    this.quick = this.frame === 0 ? quick : this.quick && quick;
    if (this.frame === 0) {
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        if (this.quick && this.cached) {
          // The view moved: a drawing under way is for the old view.
          this.job = null;
          this.blit();
        } else if (this.lifted && this.cached) {
          this.blit();
          this.drawLifted();
        } else this.draw();
      });
    }
    clearTimeout(this.settle);
    if (quick) this.settle = window.setTimeout(() => this.render(), SETTLE_MS);
  }

  private blit(measure = true): void {
    const started = performance.now();
    const cached = this.cached!;
    const ratio = window.devicePixelRatio || 1;
    const k = this.scale / cached.scale;
    const context = this.context;
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.clearRect(0, 0, this.canvas.width, this.canvas.height);
    context.drawImage(
      this.cache,
      (this.tx - cached.tx * k) * ratio,
      (this.ty - cached.ty * k) * ratio,
      this.cache.width * k,
      this.cache.height * k,
    );
    if (measure) performance.measure('asset-map:draw', { start: started, end: performance.now() });
  }

  zoomBy(factor: number, cx = this.width / 2, cy = this.height / 2): void {
    const scale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, this.scale * factor));
    // The point under (cx, cy) stays where it is.
    this.tx = cx - ((cx - this.tx) * scale) / this.scale;
    this.ty = cy - ((cy - this.ty) * scale) / this.scale;
    this.scale = scale;
    this.render(true);
  }

  panBy(dx: number, dy: number): void {
    this.tx += dx;
    this.ty += dy;
    this.render(true);
  }

  /** Shows every node. */
  fit(): void {
    if (this.nodes.size === 0 || this.width === 0) return;
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (const node of this.nodes.values()) {
      minX = Math.min(minX, node.x);
      minY = Math.min(minY, node.y);
      maxX = Math.max(maxX, node.x);
      maxY = Math.max(maxY, node.y);
    }
    const margin = 40;
    const scale = Math.min(
      (this.width - 2 * margin) / Math.max(maxX - minX, 1),
      (this.height - 2 * margin) / Math.max(maxY - minY, 1),
      1.5,
    );
    this.scale = Math.max(MIN_SCALE, scale);
    this.tx = this.width / 2 - ((minX + maxX) / 2) * this.scale;
    this.ty = this.height / 2 - ((minY + maxY) / 2) * this.scale;
    this.render();
  }

  centreOn(id: string): void {
    const node = this.nodes.get(id);
    if (!node) return;
    this.scale = Math.max(this.scale, 0.8);
    this.tx = this.width / 2 - node.x * this.scale;
    this.ty = this.height / 2 - node.y * this.scale;
    this.render();
  }

  private measure(): void {
    const ratio = window.devicePixelRatio || 1;
    const { width, height } = this.canvas.getBoundingClientRect();
    this.width = width;
    this.height = height;
    this.canvas.width = Math.round(width * ratio);
    this.canvas.height = Math.round(height * ratio);
    for (const buffer of [this.cache, this.back]) {
      buffer.width = this.canvas.width;
      buffer.height = this.canvas.height;
    }
    this.cached = null;
    this.job = null;
    this.render();
  }

  /**
   * Draws the whole view. Small maps are drawn at once; a large one is drawn as a list of
   * bounded steps (a few thousand shapes each) spread over frames into a back buffer, while the
   * screen keeps showing the last drawing, so no frame waits for all 5,000 nodes at once.
   */
  private draw(immediate = false): void {
    this.job = null;
    const view = { scale: this.scale, tx: this.tx, ty: this.ty };
    const steps = this.steps(view);
    const context = this.back.getContext('2d')!;
    const ratio = window.devicePixelRatio || 1;
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.clearRect(0, 0, this.back.width, this.back.height);
    context.setTransform(
      ratio * view.scale,
      0,
      0,
      ratio * view.scale,
      ratio * view.tx,
      ratio * view.ty,
    );
    const job = { steps, next: 0, view };
    if (immediate || this.nodes.size + this.edges.size <= IMMEDIATE_LIMIT || !this.cached) {
      const started = performance.now();
      for (const step of steps) step(context);
      this.finish(job);
      performance.measure('asset-map:draw', { start: started, end: performance.now() });
    } else {
      this.job = job;
      this.continueJob();
    }
  }

  private continueJob(): void {
    const job = this.job;
    if (!job) return;
    const started = performance.now();
    const context = this.back.getContext('2d')!;
    // Reading a pixel makes the canvas paint what it was told now, inside this frame's budget.
    while (job.next < job.steps.length && performance.now() - started < FRAME_BUDGET_MS) {
      job.steps[job.next++](context);
      context.getImageData(0, 0, 1, 1);
    }
    if (job.next < job.steps.length) requestAnimationFrame(() => this.continueJob());
    else this.finish(job);
    performance.measure('asset-map:draw', { start: started, end: performance.now() });
  }

  private finish(job: { view: { scale: number; tx: number; ty: number } }): void {
    this.job = null;
    [this.cache, this.back] = [this.back, this.cache];
    this.cached = job.view;
    this.blit(false);
    if (this.lifted) this.drawLifted();
  }

  /** The drawing of the view, as steps of at most STEP_SIZE shapes each. */
  private steps(view: {
    scale: number;
    tx: number;
    ty: number;
  }): ((context: CanvasRenderingContext2D) => void)[] {
    const { scale, tx, ty } = view;
    const steps: ((context: CanvasRenderingContext2D) => void)[] = [];
    // The world rectangle in view, with a node's width to spare.
    const pad = RADIUS * 2;
    const left = -tx / scale - pad;
    const top = -ty / scale - pad;
    const right = (this.width - tx) / scale + pad;
    const bottom = (this.height - ty) / scale + pad;
    const inView = (node: MapNode) =>
      node.x >= left && node.x <= right && node.y >= top && node.y <= bottom;
    const thin = Math.min(scale, 1);

    const edgeStep =
      (path: Path2D, arrows: Path2D, marked: boolean) => (context: CanvasRenderingContext2D) => {
        context.lineWidth = (marked ? 4 : 1.2) / thin;
        context.strokeStyle = marked ? EDGE_HIGHLIGHT : EDGE;
        context.stroke(path);
        context.fillStyle = marked ? EDGE_HIGHLIGHT : EDGE;
        context.fill(arrows);
      };
    let plain = new Path2D();
    let arrows = new Path2D();
    let count = 0;
    const marked = new Path2D();
    const markedArrows = new Path2D();
    const labelled: [Relation, MapNode, MapNode][] = [];
    const showDetail = scale >= LABEL_SCALE;
    for (const edge of this.edges.values()) {
      const from = this.nodes.get(edge.sourceAssetId);
      const to = this.nodes.get(edge.targetAssetId);
      if (!from || !to) continue;
      if (edge.sourceAssetId === this.lifted || edge.targetAssetId === this.lifted) continue;
      if (!inView(from) && !inView(to)) {
        // Both ends out of view: drawn only if the line may cross the view.
        if (Math.max(from.x, to.x) < left || Math.min(from.x, to.x) > right) continue;
        if (Math.max(from.y, to.y) < top || Math.min(from.y, to.y) > bottom) continue;
      }
      const isMarked = this.highlight.edges.has(edge.id);
      const path = isMarked ? marked : plain;
      path.moveTo(from.x, from.y);
      path.lineTo(to.x, to.y);
      if (edge.direction === 'mono' && scale >= 0.25) {
        arrowHead(isMarked ? markedArrows : arrows, from, to);
      }
      if (showDetail && (edge.protocol || edge.toPorts) && labelled.length < MAX_LABELS) {
        labelled.push([edge, from, to]);
      }
      if (!isMarked && ++count % STEP_SIZE === 0) {
        steps.push(edgeStep(plain, arrows, false));
        plain = new Path2D();
        arrows = new Path2D();
      }
    }
    steps.push(edgeStep(plain, arrows, false));
    steps.push(edgeStep(marked, markedArrows, true));

    // Far out, squares are as good as circles, and plain rectangles are the cheapest to fill.
    const squares = scale < 0.3;
    const visible: MapNode[] = [];
    const rings = new Path2D();
    let batch: MapNode[] = [];
    const nodeStep = (nodes: MapNode[]) => (context: CanvasRenderingContext2D) => {
      for (const level of LEVELS) {
        context.fillStyle = COLOURS[level];
        const path = new Path2D();
        for (const node of nodes) {
          if (riskLevel(node.asset.risk_score) !== level) continue;
          if (squares) context.fillRect(node.x - RADIUS, node.y - RADIUS, RADIUS * 2, RADIUS * 2);
          else {
            path.moveTo(node.x + RADIUS, node.y);
            path.arc(node.x, node.y, RADIUS, 0, Math.PI * 2);
          }
        }
        if (!squares) context.fill(path);
      }
    };
    for (const node of this.nodes.values()) {
      if (!inView(node) || node.asset.id === this.lifted) continue;
      visible.push(node);
      batch.push(node);
      if (batch.length === STEP_SIZE) {
        steps.push(nodeStep(batch));
        batch = [];
      }
      if (this.highlight.nodes.has(node.asset.id)) {
        rings.moveTo(node.x + RADIUS + 5, node.y);
        rings.arc(node.x, node.y, RADIUS + 5, 0, Math.PI * 2);
      }
    }
    steps.push(nodeStep(batch));

    const selected =
      this.selected && this.selected !== this.lifted ? this.nodes.get(this.selected) : undefined;
    steps.push((context) => {
      context.lineWidth = 3 / thin;
      context.strokeStyle = EDGE_HIGHLIGHT;
      context.stroke(rings);
      if (selected) {
        context.beginPath();
        context.arc(selected.x, selected.y, RADIUS + 8, 0, Math.PI * 2);
        context.strokeStyle = '#1a202c';
        context.lineWidth = 2.5 / thin;
        context.stroke();
      }
    });

    if (showDetail && visible.length <= MAX_LABELS) {
      steps.push((context) => {
        context.font = '11px system-ui, sans-serif';
        context.textAlign = 'center';
        // A halo of the background under each label keeps it readable where it crosses an
        // edge or another label (a short edge's label meets its ends' names).
        context.lineJoin = 'round';
        context.lineWidth = 3;
        context.strokeStyle = 'rgba(255, 255, 255, 0.85)';
        context.fillStyle = '#4a5568';
        for (const [edge, from, to] of labelled) {
          const text = [edge.protocol, edge.toPorts].filter(Boolean).join(' ');
          const x = (from.x + to.x) / 2;
          const y = (from.y + to.y) / 2 - 3;
          context.strokeText(text, x, y);
          context.fillText(text, x, y);
        }
        context.font = '12px system-ui, sans-serif';
        context.fillStyle = '#1a202c';
        for (const node of visible) {
          context.strokeText(node.asset.name, node.x, node.y + RADIUS + 13);
          context.fillText(node.asset.name, node.x, node.y + RADIUS + 13);
        }
      });
    }
    return steps;
  }

  private toWorld(event: { clientX: number; clientY: number }): { x: number; y: number } {
    const box = this.canvas.getBoundingClientRect();
    return {
      x: (event.clientX - box.left - this.tx) / this.scale,
      y: (event.clientY - box.top - this.ty) / this.scale,
    };
  }

  private nodeAt(x: number, y: number): string | null {
    const reach = (RADIUS + 3) ** 2;
    let found: string | null = null;
    for (const node of this.nodes.values()) {
      if ((node.x - x) ** 2 + (node.y - y) ** 2 <= reach) found = node.asset.id;
    }
    return found;
  }

  /**
   * The node being dragged, with its edges, drawn each frame over the drawing of everything
   * else (made once, when the drag starts): a drag costs a few shapes a frame, whatever the map.
   */
  private drawLifted(): void {
    const node = this.lifted ? this.nodes.get(this.lifted) : undefined;
    if (!node) return;
    const context = this.context;
    const ratio = window.devicePixelRatio || 1;
    const thin = Math.min(this.scale, 1);
    context.setTransform(
      ratio * this.scale,
      0,
      0,
      ratio * this.scale,
      ratio * this.tx,
      ratio * this.ty,
    );
    const lines = new Path2D();
    const arrows = new Path2D();
    for (const edge of this.edges.values()) {
      if (edge.sourceAssetId !== node.asset.id && edge.targetAssetId !== node.asset.id) continue;
      const from = this.nodes.get(edge.sourceAssetId);
      const to = this.nodes.get(edge.targetAssetId);
      if (!from || !to) continue;
      lines.moveTo(from.x, from.y);
      lines.lineTo(to.x, to.y);
      if (edge.direction === 'mono' && this.scale >= 0.25) arrowHead(arrows, from, to);
    }
    context.lineWidth = 1.2 / thin;
    context.strokeStyle = EDGE;
    context.stroke(lines);
    context.fillStyle = EDGE;
    context.fill(arrows);
    context.beginPath();
    context.arc(node.x, node.y, RADIUS, 0, Math.PI * 2);
    context.fillStyle = COLOURS[riskLevel(node.asset.risk_score)];
    context.fill();
    if (this.selected === node.asset.id) {
      context.beginPath();
      context.arc(node.x, node.y, RADIUS + 8, 0, Math.PI * 2);
      context.strokeStyle = '#1a202c';
      context.lineWidth = 2.5 / thin;
      context.stroke();
    }
  }

  private pointerDown(event: PointerEvent): void {
    this.canvas.focus();
    const point = this.toWorld(event);
    const id = this.nodeAt(point.x, point.y);
    this.drag = id
      ? { kind: 'node', id, x: event.clientX, y: event.clientY, moved: false }
      : { kind: 'pan', x: event.clientX, y: event.clientY, moved: false };
    this.canvas.setPointerCapture(event.pointerId);
  }

  private pointerMove(event: PointerEvent): void {
    if (!this.drag) return;
    const dx = event.clientX - this.drag.x;
    const dy = event.clientY - this.drag.y;
    if (!this.drag.moved && Math.abs(dx) + Math.abs(dy) < 3) return;
    this.drag.moved = true;
    this.drag.x = event.clientX;
    this.drag.y = event.clientY;
    if (this.drag.kind === 'pan') this.panBy(dx, dy);
    else {
      if (this.lifted === null) {
        // Everything else is drawn again without it, in steps on a large map.
        this.lifted = this.drag.id!;
        this.draw();
      }
      const node = this.nodes.get(this.drag.id!)!;
      node.x += dx / this.scale;
      node.y += dy / this.scale;
      this.render();
    }
  }

  private pointerUp(event: PointerEvent): void {
    const drag = this.drag;
    this.drag = null;
    if (this.canvas.hasPointerCapture(event.pointerId))
      this.canvas.releasePointerCapture(event.pointerId);
    if (!drag) return;
    if (this.lifted !== null) {
      this.lifted = null;
      this.render();
    }
    if (drag.kind === 'node' && drag.moved) this.events.moved();
    if (!drag.moved) this.select(drag.kind === 'node' ? drag.id! : null);
  }

  select(id: string | null): void {
    this.selected = id;
    this.events.select(id);
    this.render();
  }

  private wheel(event: WheelEvent): void {
    event.preventDefault();
    const box = this.canvas.getBoundingClientRect();
    this.zoomBy(
      Math.exp(-event.deltaY * 0.0015),
      event.clientX - box.left,
      event.clientY - box.top,
    );
  }

  private key(event: KeyboardEvent): void {
    const step = 60;
    const actions: Record<string, () => void> = {
      ArrowLeft: () => this.panBy(step, 0),
      ArrowRight: () => this.panBy(-step, 0),
      ArrowUp: () => this.panBy(0, step),
      ArrowDown: () => this.panBy(0, -step),
      '+': () => this.zoomBy(1.25),
      '=': () => this.zoomBy(1.25),
      '-': () => this.zoomBy(0.8),
      '0': () => this.fit(),
      Escape: () => this.select(null),
    };
    const action = actions[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  }
}

function arrowHead(path: Path2D, from: MapNode, to: MapNode): void {
  const angle = Math.atan2(to.y - from.y, to.x - from.x);
  const tipX = to.x - Math.cos(angle) * (RADIUS + 2);
  const tipY = to.y - Math.sin(angle) * (RADIUS + 2);
  const size = 9;
  path.moveTo(tipX, tipY);
  path.lineTo(tipX - size * Math.cos(angle - 0.4), tipY - size * Math.sin(angle - 0.4));
  path.lineTo(tipX - size * Math.cos(angle + 0.4), tipY - size * Math.sin(angle + 0.4));
  path.closePath();
}

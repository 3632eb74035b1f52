// Flame graph on a canvas (no DOM node per frame): top-down from er_print's calltree, or
// inverted (leaf functions at the bottom, their callers above), click to zoom, search to
// highlight. Widths are the inclusive value of the first inclusive column (exact integers).
import {valueColumn} from './format.js';

// er_print calltree node -> {name, id, total, self, children}
export function fromCalltree(data) {
  const inc = valueColumn(data.columns, 'inclusive');
  const exc = valueColumn(data.columns, 'exclusive');
  const conv = n => {
    const children = (n.children || []).map(conv);
    const total = inc >= 0 ? n.values[inc] : 0;
    const self = exc >= 0 ? n.values[exc] : total - children.reduce((s, c) => s + c.total, 0);
    return {name: n.name, id: n.id, total, self, children};
  };
  return conv(data.root);
}

// The inverted tree: every stack's exclusive value hung below its leaf, callers below that.
export function invert(root) {
  const out = {name: root.name, id: root.id, total: root.total, self: 0, children: []};
  const path = [];
  const walk = n => {
    path.push(n);
    if (n.self > 0) {
      let at = out;
      for (let i = path.length - 1; i >= 1; --i) {
        const f = path[i];
        let c = at.children.find(x => x.id === f.id);
        if (!c) { c = {name: f.name, id: f.id, total: 0, self: 0, children: []}; at.children.push(c); }
        c.total += n.self;
        at = c;
      }
      at.self += n.self;
    }
    n.children.forEach(walk);
    path.pop();
  };
  root.children.forEach(walk);
  out.children.sort((a, b) => b.total - a.total);
  const sortAll = n => { n.children.sort((a, b) => b.total - a.total); n.children.forEach(sortAll); };
  sortAll(out);
  return out;
}

function colorFor(name, hit) {
  if (hit) return '#e040fb';
  let h = 0;
  for (let i = 0; i < name.length; ++i) h = (h * 31 + name.charCodeAt(i)) >>> 0;
  return `hsl(${20 + h % 40}, ${70 + h % 25}%, ${55 + (h >> 8) % 15}%)`;
}

export class FlameGraph {
  constructor(canvas, {onSelect} = {}) {
    this.canvas = canvas;
    this.onSelect = onSelect;
    this.rowH = 18;
    this.search = null;
    this.rects = [];
    canvas.addEventListener('click', ev => {
      const r = this.hit(ev);
      if (!r) return;
      this.zoom = r.node;
      this.draw();
      if (this.onSelect) this.onSelect(r.node);
    });
    canvas.addEventListener('mousemove', ev => {
      const r = this.hit(ev);
      canvas.title = r ? `${r.node.name}  ${r.node.total} (${(100 * r.node.total / this.root.total).toFixed(2)}%)` : '';
    });
  }
  set(root) { this.root = root; this.zoom = root; this.draw(); }
  setSearch(text) {
    try { this.search = text ? new RegExp(text) : null; } catch { this.search = null; }
    this.draw();
  }
  hit(ev) {
    const b = this.canvas.getBoundingClientRect();
    const x = ev.clientX - b.left, y = ev.clientY - b.top;
    return this.rects.find(r => x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + this.rowH);
  }
  // Path from the root to the zoomed node (drawn full width below it).
  ancestors() {
    const path = [];
    const find = n => {
      path.push(n);
      if (n === this.zoom) return true;
      for (const c of n.children) if (find(c)) return true;
      path.pop();
      return false;
    };
    find(this.root);
    return path;
  }
  draw() {
    const t0 = performance.now();
    const c = this.canvas, ctx = c.getContext('2d');
    const width = c.clientWidth || 800;
    const anc = this.ancestors();
    let maxDepth = 0;
    const depth = (n, d) => { maxDepth = Math.max(maxDepth, d); n.children.forEach(k => depth(k, d + 1)); };
    depth(this.zoom, anc.length - 1);
    const height = (maxDepth + 1) * this.rowH + 4;
    const dpr = window.devicePixelRatio || 1;
    c.width = width * dpr; c.height = height * dpr; c.style.height = height + 'px';
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    ctx.font = '12px sans-serif';
    ctx.textBaseline = 'middle';
    this.rects = [];
    let drawn = 0;
    const box = (n, x, w, d) => {
      const y = d * this.rowH;
      const hit = this.search && this.search.test(n.name);
      ctx.fillStyle = colorFor(n.name, hit);
      ctx.fillRect(x, y, Math.max(w - 1, 0.5), this.rowH - 1);
      if (w > 30) {
        ctx.fillStyle = '#000';
        ctx.save();
        ctx.beginPath(); ctx.rect(x, y, w - 2, this.rowH); ctx.clip();
        ctx.fillText(n.name, x + 3, y + this.rowH / 2);
        ctx.restore();
      }
      this.rects.push({x, y, w, node: n});
      ++drawn;
    };
    anc.forEach((n, d) => box(n, 0, width, d));
    const scale = this.zoom.total > 0 ? width / this.zoom.total : 0;
    const lay = (n, x, d) => {
      let cx = x;
      for (const k of n.children) {
        const w = k.total * scale;
        if (w >= 0.5) { box(k, cx, w, d); lay(k, cx, d + 1); }
        cx += w;
      }
    };
    lay(this.zoom, 0, anc.length);
    this.lastDraw = {ms: performance.now() - t0, nodes: drawn};
    c.dataset.nodes = String(drawn);
  }
}

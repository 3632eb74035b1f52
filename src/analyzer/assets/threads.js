// The per-thread timeline (docs/analyzer.md, "Timeline"): per experiment and thread one bar
// per data kind, each event drawn as its call stack (one cell per frame, coloured by function),
// root or leaf aligned, to a chosen depth. Wheel zooms, shift-drag pans, a drag selects a time
// range (the same filter as the sample bars), a click picks the event under the pointer.
// The server sends per thread and kind the first event of each pixel column of the view
// (/api/events), so a redraw is bounded by width x bars, whatever the experiment's size.
import {escapeHtml} from './format.js';
import {TimeView} from './timeview.js';

const colors = new Map(), pixels = new Map();
// The same colour as a little-endian RGBA word for ImageData (hsl to rgb by hand).
function pixelOfFunction(id) {
  let p = pixels.get(id);
  if (p === undefined) {
    const h = ((id * 137.508) % 360) / 360, sat = 0.6, l = (45 + (id % 3) * 8) / 100;
    const q = l < 0.5 ? l * (1 + sat) : l + sat - l * sat, p0 = 2 * l - q;
    const ch = t => {
      t = (t + 1) % 1;
      const v = t < 1 / 6 ? p0 + (q - p0) * 6 * t : t < 1 / 2 ? q : t < 2 / 3 ? p0 + (q - p0) * (2 / 3 - t) * 6 : p0;
      return Math.round(v * 255);
    };
    p = ((255 << 24) | (ch(h - 1 / 3) << 16) | (ch(h) << 8) | ch(h + 1 / 3)) >>> 0;
    pixels.set(id, p);
  }
  return p;
}
export function colorOfFunction(id) {
  // A stable colour per function id (golden-angle hues), each string made once.
  let c = colors.get(id);
  if (!c) {
    const h = (id * 137.508) % 360;
    c = `hsl(${h.toFixed(0)}, 60%, ${45 + (id % 3) * 8}%)`;
    colors.set(id, c);
  }
  return c;
}

export class ThreadTimeline extends TimeView {
  constructor(canvas, {onRange, onEvent, fetchEvents, onData} = {}) {
    super(canvas, {onRange});
    this.onData = onData;
    this.onEvent = onEvent;
    this.fetchEvents = fetchEvents;
    this.barH = 36;
    this.depth = 12;
    this.align = 'root';
    this.data = null;
    this.hits = [];
    this.selected = null;
  }
  // The server sends the events of the view: a new view is fetched after a pan, and after
  // the wheel stops for 150 ms.
  panned() { this.refetch(); }
  zoomed() {
    clearTimeout(this.wheelTimer);
    this.wheelTimer = setTimeout(() => this.refetch(), 150);
  }
  click(x, y) { this.pick(x, y); }
  set(data, range) {
    this.data = data;
    this.end = Math.max(1, data.end_ns);
    if (!this.view) this.view = [0, this.end];
    this.range = range;
    this.draw();
    if (this.onData) this.onData(data);
  }
  async refetch() {
    if (!this.fetchEvents) return;
    const t0 = Math.max(0, Math.floor(this.view[0])), t1 = Math.ceil(this.view[1]);
    this.set(await this.fetchEvents(t0, t1, Math.max(1, Math.round(this.width()))), this.range);
  }
  resetZoom() { this.view = [0, this.end]; this.refetch(); }
  bars() {
    const out = [];
    for (const th of this.data.threads)
      for (const kind of Object.keys(th.kinds)) out.push({th, kind, k: th.kinds[kind]});
    return out;
  }
  draw() {
    const t0 = performance.now();
    const c = this.canvas, ctx = c.getContext('2d');
    const bars = this.bars();
    const width = c.clientWidth || 800, height = bars.length * (this.barH + 6) + 24;
    const dpr = window.devicePixelRatio || 1;
    c.width = width * dpr; c.height = height * dpr; c.style.height = height + 'px';
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    ctx.font = '11px sans-serif';
    const sc = this.scale(), X = t => this.left + (t - this.view[0]) * sc;
    const cell = Math.max(1, Math.floor(this.barH / this.depth));
    this.hits = [];
    let drawn = 0;
    // Frames' cells go straight into pixels (CSS pixel resolution), drawn over the bars once.
    const img = new ImageData(width, height), px = new Uint32Array(img.data.buffer);
    const put = (x, y, h, color) => {
      if (x < 0 || x + 2 > width) return;
      for (let r = y; r < y + h && r < height; ++r) { px[r * width + x] = color; px[r * width + x + 1] = color; }
    };
    bars.forEach((b, i) => {
      const y = 4 + i * (this.barH + 6);
      ctx.fillStyle = '#000';
      ctx.fillText(b.th.cpu !== undefined ? `E${b.th.exp} CPU ${b.th.cpu} ${b.kind}` : `E${b.th.exp} T${b.th.thread} ${b.kind}`, 4, y + 12);
      ctx.fillStyle = '#666';
      if (b.th.cpu === undefined) ctx.fillText(`LWP ${b.th.lwp}`, 4, y + 26);
      ctx.fillStyle = '#f4f4f4';
      ctx.fillRect(this.left, y, this.width(), this.barH);
      for (const [t, s] of b.k.shown) {
        const x = X(t);
        if (x < this.left - 2 || x > this.left + this.width()) continue;
        const frames = this.data.stacks[s];  // leaf first
        const n = Math.min(frames.length, this.depth);
        const fx = Math.floor(x);
        for (let d = 0; d < n; ++d) {
          // root alignment: the root at the top; leaf alignment: the leaf at the top.
          const f = this.align === 'root' ? frames[frames.length - 1 - d] : frames[d];
          put(fx, y + d * cell, cell, pixelOfFunction(f));
        }
        this.hits.push({x, y, h: this.barH, th: b.th, kind: b.kind, t, s});
        ++drawn;
      }
      if (this.selected && this.selected.th.exp === b.th.exp && this.selected.th.thread === b.th.thread && this.selected.th.cpu === b.th.cpu && this.selected.kind === b.kind) {
        ctx.strokeStyle = '#000';
        ctx.strokeRect(Math.floor(X(this.selected.t)) - 1.5, y - 1.5, 5, this.barH + 3);
      }
    });
    if (drawn) {
      const off = new OffscreenCanvas(width, height);
      off.getContext('2d').putImageData(img, 0, 0);
      ctx.drawImage(off, 0, 0);
    }
    const span = this.rangeSpan();
    if (span) {
      ctx.fillStyle = 'rgba(30, 100, 255, 0.18)';
      ctx.fillRect(span[0], 0, span[1] - span[0], height);
    }
    ctx.fillStyle = '#000';
    ctx.fillText(`${(this.view[0] / 1e9).toFixed(3)} s`, this.left, height - 6);
    ctx.fillText(`${(this.view[1] / 1e9).toFixed(3)} s`, this.left + this.width() - 50, height - 6);
    c.dataset.drawn = drawn;
    c.dataset.drawMs = (performance.now() - t0).toFixed(1);
  }
  // The event nearest the pointer within 4 px in the bar under it.
  pick(x, y) {
    let best = null, bd = 5;
    for (const h of this.hits) {
      if (y < h.y || y > h.y + h.h) continue;
      const d = Math.abs(h.x - x);
      if (d < bd) { bd = d; best = h; }
    }
    if (!best) return;
    this.selected = best;
    this.draw();
    if (this.onEvent) this.onEvent(this.eventInfo(best));
  }
  eventInfo(h) {
    const frames = this.data.stacks[h.s].map(id => ({id, name: this.data.functions[id]}));
    return {exp: h.th.exp, thread: h.th.thread, lwp: h.th.lwp, cpu: h.th.cpu, kind: h.kind, t: h.t, frames};
  }
}

// The thread list beside the bars: events per data kind, as thread_list counts them (per CPU:
// as cpu_list does).
export function threadTable(data) {
  const kinds = [...new Set(data.threads.flatMap(t => Object.keys(t.kinds)))].sort();
  if (data.by === 'cpu') {
    let h = `<table class="metrics" id="timeline-threads" tabindex="0"><thead><tr><th>Exp</th><th>CPU</th><th>Events</th>${kinds.map(k => `<th>${escapeHtml(k)}</th>`).join('')}</tr></thead><tbody>`;
    for (const t of data.threads)
      h += `<tr><td>${t.exp}</td><td>${t.cpu}</td><td class="num">${t.events}</td>${kinds.map(k => `<td class="num">${t.kinds[k] ? t.kinds[k].count : 0}</td>`).join('')}</tr>`;
    return h + '</tbody></table>';
  }
  let h = `<table class="metrics" id="timeline-threads" tabindex="0"><thead><tr><th>Exp</th><th>Thread</th><th>LWP</th><th>Events</th>${kinds.map(k => `<th>${escapeHtml(k)}</th>`).join('')}</tr></thead><tbody>`;
  for (const t of data.threads)
    h += `<tr><td>${t.exp}</td><td>${t.thread}</td><td>${t.lwp}</td><td class="num">${t.events}</td>${kinds.map(k => `<td class="num">${t.kinds[k] ? t.kinds[k].count : 0}</td>`).join('')}</tr>`;
  return h + '</tbody></table>';
}

export function eventPanel(e, fmtTime) {
  const who = e.cpu !== undefined ? `<dt>CPU</dt><dd data-key="cpu">${e.cpu}</dd>`
                                   : `<dt>Thread</dt><dd data-key="thread">${e.thread}</dd><dt>LWP</dt><dd>${e.lwp}</dd>`;
  let h = `<h3>Event</h3><dl id="event-info"><dt>Experiment</dt><dd>${e.exp}</dd>${who}<dt>Data</dt><dd data-key="kind">${escapeHtml(e.kind)}</dd><dt>Time</dt><dd data-key="time">${fmtTime(e.t)}</dd></dl>`;
  h += '<h4>Call stack (leaf first)</h4><ol id="event-stack" class="stack">';
  for (const f of e.frames)
    h += `<li data-id="${f.id}"><span class="swatch" style="background:${colorOfFunction(f.id)}"></span>${escapeHtml(f.name)}</li>`;
  return h + '</ol>';
}

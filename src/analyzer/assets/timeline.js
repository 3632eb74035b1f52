// Timeline on a canvas: per experiment a sample bar coloured by microstate (er_print's
// overview), zoom with the wheel, pan by shift-drag, and a dragged range that becomes a time
// filter (TSTAMP, ns since the start of each experiment) every other tab follows.
import {TimeView} from './timeview.js';

// Microstates by the names of er_print's overview (the metric names: user, system, ...).
const stateColors = {
  user: '#2e7d32', system: '#c6ff00', trap: '#ffeb3b', text: '#ff9800', data: '#ff5722', kernel: '#795548',
  lock: '#e91e63', sleep: '#1e88e5', wait: '#90caf9', owait: '#bdbdbd', stop: '#424242', other: '#607d8b'};

export function colorOfState(s) { return stateColors[s] || stateColors.other; }

export class Timeline extends TimeView {
  constructor(canvas, {onRange, onLegend} = {}) {
    super(canvas, {onRange});
    this.onLegend = onLegend;
    this.rowH = 40;
  }
  set(overview, range) {
    this.exps = overview.experiments;
    let end = 1;
    for (const e of this.exps) for (const s of e.samples) end = Math.max(end, s.end_ns);
    this.end = end;
    this.view = [0, end];
    this.range = range;
    this.draw();
  }
  resetZoom() { this.view = [0, this.end]; this.draw(); }
  draw() {
    const t0 = performance.now();
    const c = this.canvas, ctx = c.getContext('2d');
    const width = c.clientWidth || 800, height = this.exps.length * (this.rowH + 10) + 30;
    const dpr = window.devicePixelRatio || 1;
    c.width = width * dpr; c.height = height * dpr; c.style.height = height + 'px';
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    ctx.font = '12px sans-serif';
    const sc = this.scale(), X = t => this.left + (t - this.view[0]) * sc;
    let events = 0;
    const states = new Set();
    this.exps.forEach((e, i) => {
      const y = 20 + i * (this.rowH + 10);
      ctx.fillStyle = '#000';
      ctx.fillText(`Exp ${e.experiment}`, 4, y + this.rowH / 2);
      // Samples are summed per pixel column (a 10,000-sample run is ~10 per pixel), so a
      // redraw costs one bar per column and state, not one per sample.
      const cols = new Map();
      for (const s of e.samples) {
        const x0 = Math.max(this.left, X(s.start_ns)), x1 = Math.min(this.left + this.width(), X(s.end_ns));
        if (x1 <= x0) continue;
        ++events;
        const c0 = Math.floor(x0), c1 = Math.max(c0 + 1, Math.floor(x1));
        const ms = s.microstates_ns || {};
        for (let c = c0; c < c1; ++c) {
          let bin = cols.get(c);
          if (!bin) cols.set(c, bin = {});
          for (const st in ms) bin[st] = (bin[st] || 0) + ms[st];
        }
      }
      for (const [x, bin] of cols) {
        let total = 0;
        for (const st in bin) total += bin[st];
        if (!total) continue;
        let yy = y + this.rowH;
        for (const st in bin) {
          if (!bin[st]) continue;
          const h = this.rowH * bin[st] / total;
          ctx.fillStyle = colorOfState(st);
          ctx.fillRect(x, yy - h, 1, h);
          yy -= h;
          states.add(st);
        }
      }
    });
    // Time axis in seconds.
    ctx.fillStyle = '#000';
    const secs = (this.view[1] - this.view[0]) / 1e9;
    const step = Math.pow(10, Math.floor(Math.log10(Math.max(secs, 1e-6) / 5)));
    for (let t = Math.ceil(this.view[0] / 1e9 / step) * step; t * 1e9 <= this.view[1]; t += step)
      ctx.fillText(`${+t.toFixed(6)}s`, X(t * 1e9), 12);
    // The selected range (or the one being dragged).
    const span = this.rangeSpan();
    if (span) {
      ctx.fillStyle = 'rgba(33,150,243,0.25)';
      ctx.fillRect(span[0], 14, span[1] - span[0], height - 14);
    }
    const legend = [...states].sort().join(',');
    if (this.onLegend && legend !== this.legend) this.onLegend([...states].sort());
    this.legend = legend;
    this.lastDraw = {ms: performance.now() - t0, events};
    c.dataset.events = String(events);
  }
}

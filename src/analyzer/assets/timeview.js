// The time axis both timelines share (timeline.js: the sample bars; threads.js: the bars per
// thread and data kind): a canvas whose x from `left` on shows the view [t0, t1] ns. The wheel
// zooms about the pointer, shift-drag pans, a drag selects a time range (onRange), a click
// without a drag goes to click(x, y). Subclasses draw() and may react to a changed view.
export class TimeView {
  constructor(canvas, {onRange} = {}) {
    this.canvas = canvas;
    this.onRange = onRange;
    this.left = 110;
    this.view = null;  // [t0, t1] ns shown
    this.drag = null;
    this.range = null;
    canvas.addEventListener('mousedown', ev => {
      const x = this.x(ev);
      this.drag = {from: x, to: x, pan: ev.shiftKey, view: this.view && [...this.view], y: ev.offsetY};
    });
    canvas.addEventListener('mousemove', ev => {
      if (!this.drag) return;
      this.drag.to = this.x(ev);
      if (this.drag.pan) {
        const dt = (this.drag.from - this.drag.to) / this.scale();
        this.view = [this.drag.view[0] + dt, this.drag.view[1] + dt];
      }
      this.draw();
    });
    window.addEventListener('mouseup', () => {
      if (!this.drag) return;
      const d = this.drag;
      this.drag = null;
      if (d.pan) {
        this.panned();
      } else if (Math.abs(d.to - d.from) > 3) {
        const a = this.time(Math.min(d.from, d.to)), b = this.time(Math.max(d.from, d.to));
        this.range = [Math.max(0, Math.floor(a)), Math.ceil(b)];
        if (this.onRange) this.onRange(this.range);
        this.draw();
      } else {
        this.click(d.from, d.y);
      }
    });
    canvas.addEventListener('wheel', ev => {
      ev.preventDefault();
      const t = this.time(this.x(ev));
      const f = ev.deltaY > 0 ? 1.25 : 0.8;
      this.view = [t - (t - this.view[0]) * f, t + (this.view[1] - t) * f];
      this.draw();
      this.zoomed();
    }, {passive: false});
  }
  x(ev) { return ev.clientX - this.canvas.getBoundingClientRect().left; }
  width() { return (this.canvas.clientWidth || 800) - this.left - 10; }
  scale() { return this.width() / Math.max(1, this.view[1] - this.view[0]); }
  time(x) { return this.view[0] + (x - this.left) / this.scale(); }
  // The range being dragged, else the selected one, as [x0, x1] on the canvas; null if none.
  rangeSpan() {
    const X = t => this.left + (t - this.view[0]) * this.scale();
    if (this.drag && !this.drag.pan) return [Math.min(this.drag.from, this.drag.to), Math.max(this.drag.from, this.drag.to)];
    return this.range ? [X(this.range[0]), X(this.range[1])] : null;
  }
  // Hooks: after a pan ends, after each wheel step, on a click without a drag.
  panned() { this.draw(); }
  zoomed() {}
  click() { this.draw(); }
}

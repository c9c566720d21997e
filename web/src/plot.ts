/** A minimal log–log line plot on a canvas (no chart library). */

export interface Series {
  label: string;
  colour: string;
  points: { x: number; y: number }[];
}

export function logLogPlot(c: HTMLCanvasElement, series: Series[], xLabel: string, yLabel: string): void {
  const g = c.getContext('2d')!;
  const W = c.width,
    H = c.height;
  const L = 64,
    R = 14,
    T = 14,
    B = 42;
  g.fillStyle = '#0b0d12';
  g.fillRect(0, 0, W, H);
  const pts = series.flatMap((s) => s.points).filter((p) => p.x > 0 && p.y > 0 && Number.isFinite(p.y));
  g.font = '11px system-ui, sans-serif';
  if (pts.length === 0) {
    g.fillStyle = '#9aa0ae';
    g.fillText('no data yet', W / 2 - 30, H / 2);
    return;
  }
  const lx0 = Math.floor(Math.log2(Math.min(...pts.map((p) => p.x))));
  const lx1 = Math.ceil(Math.log2(Math.max(...pts.map((p) => p.x))));
  let ly0 = Math.floor(Math.log10(Math.min(...pts.map((p) => p.y))));
  let ly1 = Math.ceil(Math.log10(Math.max(...pts.map((p) => p.y))));
  if (ly1 === ly0) {
    ly0 -= 1;
    ly1 += 1;
  }
  const sx = (x: number) => L + ((Math.log2(x) - lx0) / Math.max(1, lx1 - lx0)) * (W - L - R);
  const sy = (y: number) => H - B - ((Math.log10(y) - ly0) / (ly1 - ly0)) * (H - T - B);
  // Grid and ticks.
  g.strokeStyle = '#262b38';
  g.fillStyle = '#9aa0ae';
  g.lineWidth = 1;
  for (let e = lx0; e <= lx1; e++) {
    const x = sx(2 ** e);
    g.beginPath();
    g.moveTo(x, T);
    g.lineTo(x, H - B);
    g.stroke();
    const lab = 2 ** e >= 1024 ? `${2 ** e / 1024}K` : String(2 ** e);
    if ((e - lx0) % Math.ceil((lx1 - lx0 + 1) / 12) === 0)
      g.fillText(lab, x - g.measureText(lab).width / 2, H - B + 14);
  }
  for (let e = ly0; e <= ly1; e++) {
    const y = sy(10 ** e);
    g.beginPath();
    g.moveTo(L, y);
    g.lineTo(W - R, y);
    g.stroke();
    const lab = e >= 0 && e < 5 ? String(10 ** e) : `1e${e}`;
    g.fillText(lab, L - 6 - g.measureText(lab).width, y + 4);
  }
  g.fillText(xLabel, L + (W - L - R) / 2 - g.measureText(xLabel).width / 2, H - 8);
  g.save();
  g.translate(14, T + (H - T - B) / 2);
  g.rotate(-Math.PI / 2);
  g.fillText(yLabel, -g.measureText(yLabel).width / 2, 0);
  g.restore();
  // Series.
  let ly = T + 6;
  for (const s of series) {
    const ps = s.points.filter((p) => p.x > 0 && p.y > 0 && Number.isFinite(p.y)).sort((a, b) => a.x - b.x);
    g.strokeStyle = s.colour;
    g.fillStyle = s.colour;
    g.lineWidth = 2;
    g.beginPath();
    ps.forEach((p, i) => (i ? g.lineTo(sx(p.x), sy(p.y)) : g.moveTo(sx(p.x), sy(p.y))));
    g.stroke();
    for (const p of ps) {
      g.beginPath();
      g.arc(sx(p.x), sy(p.y), 3, 0, 2 * Math.PI);
      g.fill();
    }
    if (ps.length) {
      g.fillRect(L + 10, ly - 4, 14, 3);
      g.fillText(s.label, L + 30, ly);
      ly += 15;
    }
  }
}

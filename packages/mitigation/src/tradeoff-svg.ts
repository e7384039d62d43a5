import type { TradeoffPoint } from './pareto.js';

export interface TradeoffPlot {
  /** Every evaluated trial (drawn as faint dots). */
  readonly trials: readonly TradeoffPoint[];
  /** The front, best fairness first (drawn as a connected line; hover shows index and values). */
  readonly front: readonly TradeoffPoint[];
  /** Per front model: whether it meets the selection constraint. */
  readonly admissible: readonly boolean[];
  readonly selected: number;
  readonly fairnessLabel: string;
  readonly accuracyLabel: string;
  /** Leave front models that do not meet the constraint out. */
  readonly hideInadmissible?: boolean;
}

const W = 640;
const H = 420;
const M = { left: 70, right: 20, top: 20, bottom: 55 };

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const fmt = (v: number) => (Math.abs(v) >= 100 ? v.toFixed(1) : v.toPrecision(3));

function scale(lo: number, hi: number, a: number, b: number): (v: number) => number {
  // A degenerate range is widened so that its single value sits in the middle.
  const pad = hi > lo ? 0 : Math.abs(lo) / 2 || 0.5;
  const from = lo - pad;
  const span = hi - lo + 2 * pad;
  return (v) => a + ((v - from) / span) * (b - a);
}

/** A standalone SVG scatter plot of the fairness/accuracy trade-off (seed 004's `show_tradeoff`). */
export function tradeoffSvg(plot: TradeoffPlot): string {
  const shown = plot.front
    .map((p, i) => ({ p, i }))
    .filter(({ i }) => !plot.hideInadmissible || plot.admissible[i] || i === plot.selected);
  const all = [...plot.trials, ...plot.front].filter(
    (p) => Number.isFinite(p.fairness) && Number.isFinite(p.accuracy),
  );
  const [f0, f1] = [Math.min(...all.map((p) => p.fairness)), Math.max(...all.map((p) => p.fairness))];
  const [a0, a1] = [Math.min(...all.map((p) => p.accuracy)), Math.max(...all.map((p) => p.accuracy))];
  const x = scale(f0, f1, M.left, W - M.right);
  const y = scale(a0, a1, H - M.bottom, M.top);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<line x1="${M.left}" y1="${H - M.bottom}" x2="${W - M.right}" y2="${H - M.bottom}" stroke="black"/>`,
    `<line x1="${M.left}" y1="${M.top}" x2="${M.left}" y2="${H - M.bottom}" stroke="black"/>`,
  ];
  for (let t = 0; t <= 4; t++) {
    const fv = f0 + ((f1 - f0) * t) / 4;
    const av = a0 + ((a1 - a0) * t) / 4;
    out.push(
      `<text x="${x(fv).toFixed(1)}" y="${H - M.bottom + 16}" text-anchor="middle">${fmt(fv)}</text>`,
      `<text x="${M.left - 6}" y="${(y(av) + 4).toFixed(1)}" text-anchor="end">${fmt(av)}</text>`,
    );
  }
  out.push(
    `<text x="${(M.left + W - M.right) / 2}" y="${H - 12}" text-anchor="middle">${esc(plot.fairnessLabel)} (lower is fairer)</text>`,
    `<text transform="translate(16 ${(M.top + H - M.bottom) / 2}) rotate(-90)" text-anchor="middle">${esc(plot.accuracyLabel)}</text>`,
  );
  for (const p of plot.trials) {
    if (!Number.isFinite(p.fairness) || !Number.isFinite(p.accuracy)) continue;
    out.push(`<circle cx="${x(p.fairness).toFixed(1)}" cy="${y(p.accuracy).toFixed(1)}" r="2" fill="#bbb"/>`);
  }
  if (shown.length > 1) {
    const path = shown.map(({ p }) => `${x(p.fairness).toFixed(1)},${y(p.accuracy).toFixed(1)}`).join(' ');
    out.push(`<polyline points="${path}" fill="none" stroke="#1f77b4" stroke-width="1.5"/>`);
  }
  for (const { p, i } of shown) {
    const sel = i === plot.selected;
    const colour = sel ? '#d62728' : plot.admissible[i] ? '#1f77b4' : '#9ecae1';
    out.push(
      `<circle cx="${x(p.fairness).toFixed(1)}" cy="${y(p.accuracy).toFixed(1)}" r="${sel ? 6 : 4}" fill="${colour}">` +
        `<title>model ${i}: ${esc(plot.fairnessLabel)} ${fmt(p.fairness)}, ${esc(plot.accuracyLabel)} ${fmt(p.accuracy)}${sel ? ' (selected)' : ''}</title></circle>`,
    );
  }
  out.push('</svg>');
  return out.join('\n');
}

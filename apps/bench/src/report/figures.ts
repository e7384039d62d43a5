import * as vega from 'vega';
import * as vl from 'vega-lite';
import { textMarkWidth } from './text-width.js';

// Lay text out by font metrics, not vega's canvas-less estimate of 0.8 em per character (vega
// exports `textMetrics` for this, as vl-convert uses it, but its type declarations omit it).
(vega as unknown as { textMetrics: { width: typeof textMarkWidth } }).textMetrics.width = textMarkWidth;

/** A vega-lite specification without its data; `complete` adds the rows and the shared style. */
export type FigureSpec = Record<string, unknown>;

/** Okabe & Ito's colour-blind-safe palette, and a marker shape per colour. */
export const PALETTE = [
  '#0072B2',
  '#E69F00',
  '#009E73',
  '#CC79A7',
  '#56B4E9',
  '#D55E00',
  '#000000',
  '#F0E442',
];
export const SHAPES = [
  'circle',
  'square',
  'triangle-up',
  'diamond',
  'cross',
  'triangle-down',
  'triangle-left',
  'triangle-right',
];
/** At most this many series share a panel; more are split into panels. */
export const MAX_SERIES = PALETTE.length;

const CONFIG = {
  font: 'Helvetica, Arial, sans-serif',
  view: { stroke: '#ddd' },
  // At least 11 px: a figure up to 680 px wide prints its smallest text at 8 pt in the article.
  axis: { labelFontSize: 11, titleFontSize: 12, labelLimit: 260 },
  legend: { labelFontSize: 11, titleFontSize: 12, labelLimit: 260 },
  header: { labelFontSize: 12, titleFontSize: 12, labelLimit: 300 },
  title: { fontSize: 13, anchor: 'start' },
};

/** The full vega-lite spec of a figure: style, schema and its rows (what is saved beside the SVG). */
export function complete(spec: FigureSpec, values: readonly object[]): vl.TopLevelSpec {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    config: CONFIG,
    ...spec,
    data: { values },
  } as vl.TopLevelSpec;
}

/** Render a vega-lite chart to SVG headless (no browser, no canvas). */
export async function render(spec: vl.TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** Colour and shape for named series, the same series always in the same colour within a figure. */
function series(field: string, names: readonly string[], title: string, legend?: Record<string, unknown>) {
  const domain = [...names];
  return {
    color: {
      field,
      type: 'nominal',
      title,
      sort: domain,
      scale: { domain, range: PALETTE.slice(0, domain.length) },
      ...(legend ? { legend } : {}),
    },
    shape: {
      field,
      type: 'nominal',
      title,
      sort: domain,
      scale: { domain, range: SHAPES.slice(0, domain.length) },
      ...(legend ? { legend } : {}),
    },
  };
}

/** Series names split into balanced panels of at most `MAX_SERIES` (9 become 5 + 4, not 8 + 1). */
export function panelsOf(names: readonly string[]): string[][] {
  const panels = Math.ceil(names.length / MAX_SERIES);
  const per = Math.ceil(names.length / Math.max(1, panels));
  const out: string[][] = [];
  for (let i = 0; i < names.length; i += per) out.push(names.slice(i, i + per));
  return out;
}

/**
 * A measure per method (bar, 95% interval as a rule) beside its chance level (black tick): one panel
 * per scenario (rows) and model (columns).
 */
export function chanceFigure(
  title: string,
  subtitle: string,
  measure: string,
  methods: readonly string[],
): FigureSpec {
  return {
    // The title names the panel; the subtitle says how to read it (a long title sets the chart's width).
    title: { text: title, subtitle: [subtitle, `bar: ${measure} (95% CI); tick: chance level`] },
    facet: {
      row: { field: 'scenario', type: 'nominal', title: null, sort: null },
      column: { field: 'model', type: 'nominal', title: null, sort: null },
    },
    spec: {
      width: 220,
      height: { step: 14 },
      encoding: { y: { field: 'method', type: 'nominal', sort: [...methods], title: null } },
      layer: [
        {
          mark: { type: 'bar', color: PALETTE[0] },
          encoding: {
            x: { field: 'value', type: 'quantitative', scale: { domain: [0, 1] }, title: measure },
          },
        },
        {
          mark: { type: 'rule', color: '#333' },
          encoding: { x: { field: 'lo', type: 'quantitative' }, x2: { field: 'hi' } },
        },
        {
          mark: { type: 'tick', color: PALETTE[5], thickness: 3, size: 12 },
          encoding: { x: { field: 'chance', type: 'quantitative' } },
        },
      ],
    },
  };
}

/**
 * Mean Jaccard by planted bias, one panel per method, separation and sufficiency as two series;
 * the bias ranges in their planned order from no bias.
 */
export function trendFigure(levels: readonly string[], methods: readonly string[]): FigureSpec {
  return {
    title: 'Localisation (mean best Jaccard of the top findings) by planted bias',
    facet: { field: 'method', type: 'nominal', title: null, sort: [...methods] },
    columns: 4,
    spec: {
      width: 150,
      height: 120,
      mark: { type: 'line', point: { filled: true, size: 50 } },
      encoding: {
        x: {
          field: 'level',
          type: 'ordinal',
          sort: [...levels],
          title: 'planted bias (|β| range)',
          // Neighbouring ranges ("0.25–0.75", "0.75–1.5") are wider than a level's share of the panel.
          axis: { labelAngle: -40 },
        },
        y: { field: 'jaccard', type: 'quantitative', scale: { domain: [0, 1] }, title: 'mean Jaccard' },
        ...series('variant', ['separation', 'sufficiency'], 'bias in'),
      },
    },
  };
}

/**
 * Detection rate by factor level: one column per factor, one row per panel of at most eight methods
 * (each row with its own legend). Levels are numbers on a numeric axis.
 */
export function factorFigure(title: string, panels: readonly (readonly string[])[]): FigureSpec {
  return {
    title,
    vconcat: panels.map((methods, k) => ({
      transform: [{ filter: `datum.panel === ${k + 1}` }],
      facet: { column: { field: 'factor', type: 'nominal', title: null } },
      resolve: { scale: { x: 'independent' } },
      spec: {
        width: 130,
        height: 110,
        mark: { type: 'line', point: { filled: true, size: 40 } },
        encoding: {
          x: { field: 'from', type: 'quantitative', title: 'factor level', scale: { zero: false } },
          y: { field: 'rate', type: 'quantitative', scale: { domain: [0, 1] }, title: 'detected' },
          ...series('method', methods, 'method'),
          tooltip: [{ field: 'method' }, { field: 'level' }, { field: 'rate', format: '.2f' }],
        },
      },
    })),
    resolve: { scale: { color: 'independent', shape: 'independent' } },
  };
}

/** Recall by the value of a numeric option (one panel per method option), the chance level dashed. */
export const sensitivityNumericFigure: FigureSpec = {
  title: 'Recall by value of a varied method option (dashed: chance level)',
  facet: { field: 'panel', type: 'nominal', title: null },
  columns: 3,
  resolve: { scale: { x: 'independent' } },
  spec: {
    width: 160,
    height: 120,
    layer: [
      {
        mark: { type: 'line', point: { filled: true, size: 50 }, color: PALETTE[0] },
        encoding: {
          x: { field: 'value', type: 'quantitative', title: 'option value', scale: { zero: false } },
          y: { field: 'recall', type: 'quantitative', scale: { domain: [0, 1] }, title: 'recall' },
        },
      },
      {
        mark: { type: 'line', strokeDash: [4, 3], color: PALETTE[5] },
        encoding: {
          x: { field: 'value', type: 'quantitative' },
          y: { field: 'chance', type: 'quantitative' },
        },
      },
    ],
  },
};

/** Recall by the value of a categorical option (one panel per method option), chance as a tick. */
export const sensitivityCategoricalFigure: FigureSpec = {
  title: 'Recall by value of a varied method option (tick: chance level)',
  facet: { field: 'panel', type: 'nominal', title: null },
  columns: 3,
  resolve: { scale: { y: 'independent' } },
  spec: {
    width: 160,
    height: { step: 16 },
    encoding: { y: { field: 'value', type: 'nominal', title: null, sort: null } },
    layer: [
      {
        mark: { type: 'bar', color: PALETTE[0] },
        encoding: {
          x: { field: 'recall', type: 'quantitative', scale: { domain: [0, 1] }, title: 'recall' },
        },
      },
      {
        mark: { type: 'tick', color: PALETTE[5], thickness: 3 },
        encoding: { x: { field: 'chance', type: 'quantitative' } },
      },
    ],
  },
};

/** Agreement between methods: a square matrix, rows and columns in the same order. */
export function agreementFigure(methods: readonly string[]): FigureSpec {
  const order = [...methods];
  return {
    title: 'Agreement between methods (mean Jaccard of the protected values they implicate)',
    width: { step: 22 },
    height: { step: 22 },
    layer: [
      {
        mark: 'rect',
        encoding: {
          x: { field: 'a', type: 'nominal', sort: order, title: null, axis: { labelAngle: -50 } },
          y: { field: 'b', type: 'nominal', sort: order, title: null },
          color: {
            field: 'value',
            type: 'quantitative',
            scale: { domain: [0, 1], scheme: 'blues' },
            title: 'Jaccard',
          },
        },
      },
      {
        mark: { type: 'text', fontSize: 8 },
        encoding: {
          x: { field: 'a', type: 'nominal', sort: order },
          y: { field: 'b', type: 'nominal', sort: order },
          text: { field: 'value', type: 'quantitative', format: '.1f' },
          color: { condition: { test: 'datum.value > 0.6', value: 'white' }, value: 'black' },
        },
      },
    ],
  };
}

/** Cost per method: median with the interquartile range, time and distinct queries on log axes. */
export function costFigure(methods: readonly string[]): FigureSpec {
  // The method names label the first panel's rows only: the second shares them.
  const panel = (field: string, title: string, names: boolean) => ({
    width: 200,
    height: { step: 14 },
    encoding: {
      y: {
        field: 'method',
        type: 'nominal',
        sort: [...methods],
        title: null,
        ...(names ? {} : { axis: null }),
      },
    },
    layer: [
      {
        mark: { type: 'rule', color: '#555' },
        encoding: {
          x: {
            field: `${field}_q1`,
            type: 'quantitative',
            scale: { type: 'log' },
            title,
            // Few ticks, in SI form: a log axis otherwise crowds its labels into each other.
            axis: { format: '~s', tickCount: 4, labelOverlap: true },
          },
          x2: { field: `${field}_q3` },
        },
      },
      {
        mark: { type: 'point', filled: true, color: PALETTE[0], size: 50 },
        encoding: { x: { field: `${field}_median`, type: 'quantitative' } },
      },
    ],
  });
  return {
    title: 'Cost per run: median (point) and interquartile range (line)',
    hconcat: [
      {
        ...panel('seconds', 'wall time (s)', true),
        transform: [{ filter: 'datum.seconds_median > 0' }],
      },
      {
        ...panel('queries', 'distinct model queries', false),
        transform: [{ filter: 'datum.queries_median > 0' }],
      },
    ],
  };
}

/** SUR per individual method on each real data set. */
export function realFigure(datasets: readonly string[]): FigureSpec {
  return {
    title: 'Individual methods on real data: discriminatory share of the tested samples (SUR)',
    facet: { column: { field: 'model', type: 'nominal', title: null } },
    spec: {
      width: 220,
      // Four data sets side by side per method: a thin bar each keeps twelve methods on a page.
      height: { step: 7 },
      mark: 'bar',
      encoding: {
        y: { field: 'method', type: 'nominal', title: null, sort: null },
        x: { field: 'sur', type: 'quantitative', title: 'SUR', scale: { domain: [0, 1] } },
        yOffset: { field: 'dataset', sort: [...datasets] },
        color: {
          field: 'dataset',
          type: 'nominal',
          title: 'data set',
          sort: [...datasets],
          scale: { domain: [...datasets], range: PALETTE.slice(0, datasets.length) },
        },
      },
    },
  };
}

/**
 * Anytime curves of individual methods: a measure after 1,000, 10,000 and 100,000 distinct queries
 * (log scale), the mean over seeds with its 95% interval, one panel per model, the strongest floor
 * of each checkpoint dashed.
 */
export function anytimeFigure(
  title: string,
  yTitle: string,
  methods: readonly string[],
  rate: boolean,
): FigureSpec {
  const y = {
    field: 'value',
    type: 'quantitative',
    title: yTitle,
    ...(rate ? {} : { scale: { domain: [0, 1] } }),
  };
  // Methods are drawn side by side around each checkpoint (`at`), so that intervals do not overlap.
  const x = {
    field: 'at',
    type: 'quantitative',
    title: 'queries (log)',
    scale: { type: 'log', domain: [700, 140_000] },
    axis: { values: [1000, 10_000, 100_000], format: '~s' },
  };
  return {
    // A title line per clause: one long line would widen the figure past what prints at 8 pt.
    title: { text: title.split(/(?<=:) /) },
    facet: { column: { field: 'model', type: 'nominal', title: null } },
    spec: {
      width: 120,
      height: 150,
      layer: [
        {
          transform: [{ filter: 'datum.kind === "method"' }],
          mark: { type: 'line', point: { filled: true, size: 40 } },
          // The legend under the panels, two to a row: the figure stays narrow enough to print at 8 pt.
          encoding: { x, y, ...series('method', methods, 'method', { orient: 'bottom', columns: 2 }) },
        },
        {
          transform: [{ filter: 'datum.kind === "method"' }],
          mark: { type: 'rule' },
          encoding: {
            x: { field: 'at', type: 'quantitative', scale: { type: 'log' } },
            y: { field: 'lo', type: 'quantitative' },
            y2: { field: 'hi' },
            color: {
              field: 'method',
              type: 'nominal',
              legend: null,
              scale: { domain: [...methods], range: PALETTE.slice(0, methods.length) },
            },
          },
        },
        {
          transform: [{ filter: 'datum.kind === "floor"' }],
          mark: { type: 'line', strokeDash: [4, 3], color: '#555' },
          encoding: { x, y },
        },
      ],
    },
  };
}

import * as vega from 'vega';
import * as vl from 'vega-lite';

/** A vega-lite specification without its data; `render` adds the rows. */
export type FigureSpec = Record<string, unknown>;

/** Render a vega-lite chart to SVG headless (no browser, no canvas). */
export async function render(spec: FigureSpec, values: readonly object[]): Promise<string> {
  const full = {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    config: { font: 'Helvetica, Arial, sans-serif', view: { stroke: null } },
    ...spec,
    data: { values },
  } as vl.TopLevelSpec;
  const view = new vega.View(vega.parse(vl.compile(full).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** A method's measure beside its chance level (the same findings on the no-bias twin), per method. */
export function chanceFigure(measure: string): FigureSpec {
  return {
    title: `${measure}: planted data (bar, 95% CI) and chance level (tick)`,
    width: 360,
    encoding: { y: { field: 'method', type: 'nominal', sort: null, title: null } },
    layer: [
      {
        mark: 'bar',
        encoding: {
          x: { field: 'value', type: 'quantitative', scale: { domain: [0, 1] }, title: measure },
          color: { field: 'family', type: 'nominal', title: 'family' },
        },
      },
      {
        mark: { type: 'rule', color: 'black' },
        encoding: { x: { field: 'lo', type: 'quantitative' }, x2: { field: 'hi' } },
      },
      {
        mark: { type: 'tick', color: 'black', thickness: 2 },
        encoding: { x: { field: 'chance', type: 'quantitative' } },
      },
    ],
  };
}

/** Mean Jaccard of the subgroup methods by planted bias, separation vs sufficiency (CBS Figure 1). */
export const trendFigure: FigureSpec = {
  title: 'Localisation (mean Jaccard) by planted bias',
  facet: { field: 'variant', type: 'nominal', title: null },
  spec: {
    width: 220,
    height: 160,
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'level', type: 'ordinal', sort: null, title: 'planted bias' },
      y: { field: 'jaccard', type: 'quantitative', scale: { domain: [0, 1] }, title: 'mean Jaccard' },
      color: { field: 'method', type: 'nominal', title: 'method' },
    },
  },
};

/** Detection rate of injected groups by factor level, one panel per factor. */
export const factorFigure: FigureSpec = {
  title: 'Detection rate of injected groups by factor',
  facet: { field: 'factor', type: 'nominal', title: null },
  columns: 3,
  resolve: { scale: { x: 'independent' } },
  spec: {
    width: 180,
    height: 140,
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'from', type: 'quantitative', title: 'level', scale: { zero: false } },
      y: { field: 'rate', type: 'quantitative', scale: { domain: [0, 1] }, title: 'detected' },
      color: { field: 'label', type: 'nominal', title: 'method' },
    },
  },
};

/** Recall by value of a varied option, one panel per method option. */
export const sensitivityFigure: FigureSpec = {
  title: 'Sensitivity of recall to method options',
  facet: { field: 'panel', type: 'nominal', title: null },
  columns: 3,
  resolve: { scale: { x: 'independent' } },
  spec: {
    width: 180,
    height: 140,
    mark: { type: 'bar' },
    encoding: {
      x: { field: 'value', type: 'ordinal', title: 'value' },
      y: { field: 'recall', type: 'quantitative', scale: { domain: [0, 1] } },
    },
  },
};

/** Agreement between methods as a heat map. */
export const agreementFigure: FigureSpec = {
  title: 'Agreement between methods (mean Jaccard of implicated protected values)',
  mark: 'rect',
  encoding: {
    x: { field: 'a', type: 'nominal', title: null },
    y: { field: 'b', type: 'nominal', title: null },
    color: { field: 'value', type: 'quantitative', scale: { domain: [0, 1] }, title: 'Jaccard' },
  },
};

/** SUR per method on each real data set next to synthetic data. */
export const realFigure: FigureSpec = {
  title: 'Share of discriminatory samples (SUR): real and synthetic data',
  mark: 'bar',
  encoding: {
    y: { field: 'label', type: 'nominal', title: null },
    x: { field: 'sur', type: 'quantitative', title: 'SUR' },
    color: { field: 'dataset', type: 'nominal' },
    yOffset: { field: 'dataset' },
  },
};

import type { TopLevelSpec } from 'vega-lite';
import type { GroupMetrics } from '../audit.js';

/** A vega-lite chart: its spec (kept in the report) and the SVG rendered from it here, offline. */
export interface Chart {
  readonly title: string;
  readonly spec: TopLevelSpec;
  readonly svg: string;
}

async function render(title: string, spec: TopLevelSpec): Promise<Chart> {
  // Loaded when a report is written, not with the library: vega's top-level await would make
  // \`require('@fb/cli')\` fail from CommonJS.
  const [vega, { compile }] = await Promise.all([import('vega'), import('vega-lite')]);
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  try {
    return { title, spec, svg: await view.toSVG() };
  } finally {
    view.finalize();
  }
}

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v5.json';

/** Each group's rate with its 95% interval, one panel per rate. */
export function groupRateChart(metrics: GroupMetrics): Promise<Chart> {
  const values = metrics.byGroup.flatMap((g) =>
    (
      [
        ['selection rate', g.selectionRate],
        ['true positive rate', g.tpr],
        ['false positive rate', g.fpr],
      ] as const
    )
      .filter(([, r]) => r.value !== null)
      .map(([metric, r]) => ({ group: g.group, metric, value: r.value, lo: r.lo, hi: r.hi, size: g.size })),
  );
  const spec: TopLevelSpec = {
    $schema: SCHEMA,
    data: { values },
    facet: { column: { field: 'metric', type: 'nominal', title: null } },
    spec: {
      width: 180,
      layer: [
        {
          mark: { type: 'bar', color: '#7aa6c2' },
          encoding: {
            y: { field: 'group', type: 'nominal', title: null, sort: null, axis: { labelLimit: 0 } },
            x: {
              field: 'value',
              type: 'quantitative',
              title: `share given "${metrics.positive}"`,
              scale: { domain: [0, 1] },
            },
          },
        },
        {
          mark: { type: 'rule', color: '#222' },
          encoding: {
            y: { field: 'group', type: 'nominal', sort: null },
            x: { field: 'lo', type: 'quantitative' },
            x2: { field: 'hi' },
          },
        },
      ],
    },
  };
  return render('Rates by group, with 95% Wilson intervals', spec);
}

export interface SubgroupBar {
  readonly label: string;
  readonly method: string;
  readonly effect: number;
}

/** The top subgroups' effects, one bar each, coloured by method. */
export function subgroupChart(bars: readonly SubgroupBar[]): Promise<Chart> {
  const spec: TopLevelSpec = {
    $schema: SCHEMA,
    data: { values: bars.map((b, i) => ({ ...b, key: `${i + 1}. ${b.label}` })) },
    width: 360,
    mark: 'bar',
    encoding: {
      // labelLimit 0: labels are never cut, however long the description.
      y: { field: 'key', type: 'nominal', sort: null, title: null, axis: { labelLimit: 0 } },
      x: { field: 'effect', type: 'quantitative', title: 'effect (see each method for its meaning)' },
      color: { field: 'method', type: 'nominal' },
    },
  };
  return render('Top subgroups', spec);
}

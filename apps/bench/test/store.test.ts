import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { reportMarkdown } from '../src/report.js';
import { type CellRecord, ResultStore } from '../src/store.js';
import { expandCells, studies } from '../src/study.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function record(key: string, hit: boolean, quality: number): CellRecord {
  const [scenario, seed, label] = key.split('|') as [string, string, string];
  return {
    key,
    scenario,
    seed: Number(seed),
    method: 'aequitas',
    label,
    modelAccuracy: 0.8,
    metrics: { tsn: 100, dsn: 10, sur: 0.1, dss: 0.01, queries: 300 },
    stopReason: 'completed',
    wallSeconds: 1,
    hit,
    quality,
    qualityName: 'precision',
    pValue: null,
  };
}

describe('ResultStore', () => {
  it('keeps every appended cell and ignores a torn last line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fb-store-'));
    dirs.push(dir);
    const store = new ResultStore(join(dir, 'cells.jsonl'));
    store.append(record('s|1|m', true, 0.5));
    store.append(record('s|2|m', false, 0.25));
    appendFileSync(store.path, '{"key":"s|3|m","scen');
    expect(store.read().map((r) => r.key)).toEqual(['s|1|m', 's|2|m']);
    expect(new ResultStore(store.path, true).read()).toEqual([]);
  });
});

describe('study expansion and report', () => {
  it('expands scenarios x seeds x methods into uniquely keyed cells', () => {
    const study = studies['default']!;
    const cells = expandCells(study);
    expect(cells).toHaveLength(study.scenarios.length * study.seeds.length * study.methods.length);
    expect(new Set(cells.map((c) => c.key)).size).toBe(cells.length);
  });

  it('averages over seeds per scenario and method', () => {
    const study = { ...studies['default']!, methods: studies['default']!.methods.slice(0, 1) };
    const label = study.methods[0]!.label;
    const scenario = study.scenarios[0]!.label;
    const md = reportMarkdown(study, [
      record(`${scenario}|1|${label}`, true, 0.5),
      record(`${scenario}|2|${label}`, false, 0.25),
    ]);
    expect(md).toContain(`| ${scenario} | ${label} | 2 | 0.50 | 0.375 (precision) |`);
  });
});

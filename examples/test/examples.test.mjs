// Runs every example as a user would (`node examples/<name>.mjs`) and checks what it prints against
// expectations computed here, independently: hand-computed gaps, scikit-learn's probabilities stored
// beside the ONNX fixture, and counts over the data's rows.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAdult, loadCompas } from '@fb/datasets';
import { describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const examples = path.resolve(here, '..');
const dataDir = process.env.FB_DATA_DIR ?? path.resolve(examples, '../../shared/datasets');
const hasData = existsSync(path.join(dataDir, 'adult')) && existsSync(path.join(dataDir, 'compas'));
if (!hasData)
  console.log(`examples on Adult and COMPAS skipped: no datasets at ${dataDir} (set FB_DATA_DIR)`);

/** @param {string} name */
function runExample(name, ...args) {
  return execFileSync(process.execPath, [path.join(examples, name), ...args], {
    encoding: 'utf8',
    env: { ...process.env, FB_DATA_DIR: dataDir },
  }).split('\n');
}

/**
 * A decoded conjunction (`age = 25 - 45 AND 10 <= priors_count <= 38 AND race in {A, B}`) as a test
 * on a row of labels, parsed here rather than taken from the library that wrote it.
 * @param {string} text
 * @returns {(row: Record<string, string>) => boolean}
 */
function parseConjunction(text) {
  const tests = text.split(' AND ').map((part) => {
    let m = /^(\S+) <= (\S+) (<=|<) (\S+)$/.exec(part);
    if (m) {
      const [, lo, name, op, hi] = m;
      return (row) =>
        Number(row[name]) >= Number(lo) &&
        (op === '<=' ? Number(row[name]) <= Number(hi) : Number(row[name]) < Number(hi));
    }
    m = /^(\S+) (not in|in) \{(.*)\}$/.exec(part);
    if (m) {
      const [, name, op, list] = m;
      const set = new Set(list.split(', '));
      return (row) => set.has(row[name]) === (op === 'in');
    }
    m = /^(\S+) (!=|=) (.+)$/.exec(part);
    if (m) {
      const [, name, op, label] = m;
      return (row) => (row[name] === label) === (op === '=');
    }
    throw new Error(`cannot read condition "${part}"`);
  });
  return (row) => tests.every((t) => t(row));
}

/** The dataset's rows as labels (category label, or the number as text). */
function labelledRows(ds) {
  const rows = [];
  for (let i = 0; i < ds.n; i++) {
    const row = {};
    ds.schema.attributes.forEach((a, j) => {
      const v = ds.x[i * ds.d + j];
      row[a.name] = a.categories ? a.categories[v] : String(v);
    });
    rows.push(row);
  }
  return rows;
}

describe('add a detector', () => {
  it('finds the planted gap, with the rates worked out by hand', () => {
    const out = runExample('add-a-detector.mjs');
    // 2 sexes x (alone, or with one of 3 regions) = 8 candidates; one batched query of 600 rows.
    expect(out[0]).toBe('decision-gaps: 8 candidate subgroups, 600 model queries');
    // Women in the south: approved from 80, 20 of 100; everyone else from 50, 250 of 500: 0.2 - 0.5.
    expect(out[1]).toBe('1. sex = female AND region = south | rows 100 | gap -0.300');
    // Men: 150 of 300 approved; women: 50 + 20 + 50 = 120 of 300: gaps of +-0.1, in candidate order.
    expect(out[2]).toBe('2. sex = male | rows 300 | gap 0.100');
    expect(out[3]).toBe('3. sex = female | rows 300 | gap -0.100');
  });
});

describe.skipIf(!hasData)('audit recorded decisions (COMPAS)', () => {
  it('prints group rates and subgroups that match counts over the rows', async () => {
    const out = runExample('audit-decisions.mjs');
    const compas = await loadCompas({ dataDir });
    const rows = labelledRows(compas);
    const high = compas.decileScore; // decile >= 5 = labelled medium or high risk

    // False positive rate by race: labelled high risk among those who did not reoffend (y = 0).
    const fpr = (member) => {
      let neg = 0;
      let fp = 0;
      rows.forEach((r, i) => {
        if (member(r) && compas.y[i] === 0) {
          neg++;
          if (high[i] >= 5) fp++;
        }
      });
      return { neg, fpr: fp / neg };
    };
    for (const race of ['African-American', 'Caucasian']) {
      const line = out.find((l) => l.startsWith(`race=${race} `));
      expect(line, race).toBeDefined();
      const size = rows.filter((r) => r.race === race).length;
      expect(line).toContain(` ${size} `);
      expect(line).toContain(` ${(100 * fpr((r) => r.race === race).fpr).toFixed(1)}% `);
    }

    const subgroups = out.filter((l) => l.startsWith('subgroup: '));
    expect(subgroups.length).toBe(3);
    const overall = fpr(() => true).fpr;
    for (const line of subgroups) {
      const [, text, size, rate] = /^subgroup: (.*) \| rows (\d+) \| FPR ([\d.]+)%$/.exec(line) ?? [];
      expect(text, line).toBeDefined();
      const member = parseConjunction(text);
      expect(rows.filter(member).length).toBe(Number(size));
      const inside = fpr(member).fpr;
      expect(inside).toBeCloseTo(Number(rate) / 100, 3);
      expect(inside).toBeGreaterThan(overall); // sorted by the largest positive divergence
    }
  });
});

describe.skipIf(!hasData)('audit a scikit-learn model through ONNX (Adult)', () => {
  it("gives scikit-learn's probabilities, slices of the stated size, and pairs that change one protected value", async () => {
    const out = runExample('audit-onnx-model.mjs');
    const fixture = path.resolve(
      examples,
      '../packages/models-onnx/test/fixtures/adult-forest.onnx.expected.json',
    );
    const reference = JSON.parse(readFileSync(fixture, 'utf8'));
    for (let i = 0; i < 3; i++) {
      const line = out.find((l) => l.startsWith(`row ${i}: `));
      const p = Number(/P\(>50K\) = ([\d.]+)$/.exec(line ?? '')?.[1]);
      // The stored rows are the first rows of adult.data, which loadAdult keeps in order.
      expect(line).toContain(`age ${reference.rows[i][0]}, ${reference.rows[i][3]}, ${reference.rows[i][9]}`);
      expect(p).toBeCloseTo(reference.probabilities[i][1], 5);
    }

    const adult = await loadAdult({ dataDir });
    const rows = labelledRows(adult);
    const slices = out.filter((l) => l.startsWith('slice: '));
    expect(slices.length).toBeGreaterThan(0);
    for (const line of slices) {
      const [, text, size] = /^slice: (.*) \| rows (\d+) \|/.exec(line) ?? [];
      expect(rows.filter(parseConjunction(text)).length).toBe(Number(size));
    }

    const summary = out.find((l) => l.startsWith('aequitas: '));
    const [, dsn, tsn] = /^aequitas: (\d+) of (\d+) tested/.exec(summary ?? '') ?? [];
    expect(Number(tsn)).toBe(300); // the budget of tested samples
    expect(Number(dsn)).toBeGreaterThan(0);
    const pairs = out.filter((l) => l.startsWith('pair: '));
    expect(pairs.length).toBe(3);
    for (const line of pairs) {
      // One protected attribute changed (one at a time), and the decision with it.
      const m = /^pair: (sex|race|age): (.+) -> (.+) changes income from (\S+) to (\S+)$/.exec(line);
      expect(m, line).not.toBeNull();
      expect(m[2]).not.toBe(m[3]);
      expect(m[4]).not.toBe(m[5]);
    }
  });
});

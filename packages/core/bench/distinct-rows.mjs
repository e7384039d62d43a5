// n distinct rows of a schema's domain for the benches of the row index and the query bookkeeping: uniform
// draws from a stream of `label`, a draw equal to an earlier row replaced by a new one.
import { DomainSampler, Rng, RowIndex } from '../dist/index.js';

export function distinctRows(schema, n, label) {
  const d = schema.attributes.length;
  const rows = new Float64Array(n * d);
  const sampler = new DomainSampler(schema);
  const rng = Rng.create(label);
  const seen = new RowIndex(d);
  const row = new Float64Array(d);
  for (let i = 0; i < n; ) {
    sampler.fill(rng, row);
    const before = seen.size;
    seen.getOrAdd(row);
    if (seen.size > before) rows.set(row, d * i++);
  }
  return rows;
}

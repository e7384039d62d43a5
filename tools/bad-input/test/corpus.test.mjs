import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { caseFiles, GOOD, runFile, summary } from '../src/corpus.mjs';

// Every case must end in the typed error it names or a result its check finds right.
for (const file of caseFiles()) {
  const name = basename(fileURLToPath(file), '.mjs');
  const { cases } = await import(file);
  describe(name, () => {
    let results;
    beforeAll(async () => {
      results = await runFile(file);
      console.log(summary(name, results));
    });
    it.each(cases.map((c, i) => [c.id, i]))('%s', (_id, i) => {
      const r = results[i];
      expect(GOOD.has(r.outcome), `${r.outcome}: ${r.detail}`).toBe(true);
    });
  });
}

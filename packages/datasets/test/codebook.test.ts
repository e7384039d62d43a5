import { describe, expect, it } from 'vitest';
import { CODEBOOKS, codebook, decodeLabel, loadCompas, loadGerman, NAMED_DATASETS } from '../src/index.js';
import { DATA_DIR, HAS_DATA } from './data-dir.js';

describe('codebooks', () => {
  it('give every named dataset a row set and distinct labels within each attribute', () => {
    for (const name of NAMED_DATASETS) {
      const book = codebook(name);
      expect(book.dataset).toBe(name);
      expect(book.rowSet.length).toBeGreaterThan(20);
      for (const [attribute, labels] of Object.entries(book.labels)) {
        const values = Object.values(labels);
        expect(new Set(values).size, attribute).toBe(values.length);
      }
    }
  });

  it("decode German's A-codes as german.doc words them, and leave codes without an entry as they are", () => {
    expect(decodeLabel(CODEBOOKS.german, 'checking_status', 'A11')).toBe('< 0 DM');
    expect(decodeLabel(CODEBOOKS.german, 'property', 'A121')).toBe('real estate');
    expect(decodeLabel(CODEBOOKS.german, 'duration', '12')).toBe('12');
    expect(decodeLabel(CODEBOOKS.adult, 'education', 'Bachelors')).toBe('Bachelors');
    expect(decodeLabel(CODEBOOKS.german, 'constructor', 'A11')).toBe('A11');
  });
});

describe.skipIf(!HAS_DATA)('codebooks against the loaders', () => {
  it("label every category code of loadGerman's A-coded attributes", async () => {
    const ds = await loadGerman({ dataDir: DATA_DIR });
    for (const a of ds.schema.attributes) {
      if (!a.categories || a.name === 'sex') continue;
      for (const code of a.categories)
        expect(CODEBOOKS.german.labels[a.name]?.[code], `${a.name} ${code}`).toBeDefined();
    }
  });

  it("state COMPAS's row set with the count loadCompas keeps", async () => {
    const ds = await loadCompas({ dataDir: DATA_DIR });
    expect(CODEBOOKS.compas.rowSet).toContain(`${ds.n.toLocaleString('en')} of 7,214`);
  });
});

import { domainValues, protectedIndices, type Schema, type VariantMode } from '@fb/core';

/**
 * The protected variants of an input (the rows that differ from it only in protected values), built
 * the way the counterfactual checker builds them, so that ADF picks its twin among the inputs that
 * decide discrimination.
 */
export class VariantWriter {
  readonly d: number;
  /** Variants written per input. */
  readonly count: number;
  private readonly prot: number[];
  private readonly domains: Float64Array[];
  private readonly mode: VariantMode;
  private readonly combo: Float64Array;

  constructor(schema: Schema, mode: VariantMode) {
    this.d = schema.attributes.length;
    this.prot = protectedIndices(schema);
    this.domains = this.prot.map((p) => domainValues(schema.attributes[p]!));
    this.mode = mode;
    this.combo = new Float64Array(this.prot.length);
    this.count =
      mode === 'all-combinations'
        ? this.domains.reduce((acc, dom) => acc * dom.length, 1) - 1
        : this.domains.reduce((acc, dom) => acc + dom.length - 1, 0);
  }

  /** Write the `count` variants of `x[off..]` at `out[outOff..]`. */
  write(x: Float64Array, off: number, out: Float64Array, outOff: number): void {
    const { d, prot, domains } = this;
    const row = x.subarray(off, off + d);
    let m = 0;
    if (this.mode === 'one-at-a-time') {
      for (let k = 0; k < prot.length; k++) {
        for (const v of domains[k]!) {
          if (v === row[prot[k]!]) continue;
          out.set(row, outOff + m * d);
          out[outOff + m * d + prot[k]!] = v;
          m++;
        }
      }
      return;
    }
    const total = this.count + 1;
    const combo = this.combo;
    for (let c = 0; c < total; c++) {
      let rest = c;
      let same = true;
      for (let k = prot.length - 1; k >= 0; k--) {
        const dom = domains[k]!;
        combo[k] = dom[rest % dom.length]!;
        rest = Math.floor(rest / dom.length);
        if (combo[k] !== row[prot[k]!]) same = false;
      }
      if (same) continue;
      const base = outOff + m * d;
      out.set(row, base);
      for (let k = 0; k < prot.length; k++) out[base + prot[k]!] = combo[k]!;
      m++;
    }
  }
}

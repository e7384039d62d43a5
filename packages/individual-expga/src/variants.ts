import { domainValues, protectedIndices, type Schema, type VariantMode } from '@fb/core';

/**
 * The protected variants of an input, built the way the shared checker builds them (every
 * combination of protected values, or each protected attribute changed alone), for the fitness,
 * which needs their class probabilities.
 */
export class ProtectedVariants {
  readonly d: number;
  /** Variants per input (the input itself excluded). */
  readonly perInput: number;
  private readonly prot: number[];
  private readonly domains: Float64Array[];
  private readonly mode: VariantMode;
  private readonly scratch: Float64Array;

  constructor(schema: Schema, mode: VariantMode) {
    this.d = schema.attributes.length;
    this.mode = mode;
    this.prot = protectedIndices(schema);
    this.domains = this.prot.map((p) => domainValues(schema.attributes[p]!));
    this.scratch = new Float64Array(this.prot.length);
    this.perInput =
      mode === 'all-combinations'
        ? this.domains.reduce((acc, dom) => acc * dom.length, 1) - 1
        : this.domains.reduce((acc, dom) => acc + dom.length - 1, 0);
  }

  /** Write the variants of `x[off..]` at `out[outOff..]`; returns how many (at most `perInput`). */
  write(x: Float64Array, off: number, out: Float64Array, outOff: number): number {
    const { d, prot, domains } = this;
    let m = 0;
    if (this.mode === 'one-at-a-time') {
      for (let k = 0; k < prot.length; k++) {
        for (const v of domains[k]!) {
          if (v === x[off + prot[k]!]) continue;
          out.set(x.subarray(off, off + d), outOff + m * d);
          out[outOff + m * d + prot[k]!] = v;
          m++;
        }
      }
      return m;
    }
    const total = this.perInput + 1;
    const values = this.scratch;
    for (let c = 0; c < total; c++) {
      let rest = c;
      let same = true;
      for (let k = prot.length - 1; k >= 0; k--) {
        const dom = domains[k]!;
        values[k] = dom[rest % dom.length]!;
        rest = Math.floor(rest / dom.length);
        if (values[k] !== x[off + prot[k]!]) same = false;
      }
      if (same) continue;
      const base = outOff + m * d;
      out.set(x.subarray(off, off + d), base);
      for (let k = 0; k < prot.length; k++) out[base + prot[k]!] = values[k]!;
      m++;
    }
    return m;
  }
}

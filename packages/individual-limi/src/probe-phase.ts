import { CheckStatus, type CounterfactualChecker, type Rng, type RunController } from '@fb/core';
import type { LatentGenerator } from './generator.js';
import { type Hyperplane, probeCandidates } from './probe.js';

/** The probes in the order they are tried: on the boundary, then at +lambda, then at -lambda. */
const SIDES = [0, 1, -1] as const;

export interface ProbeSettings {
  lambda: number;
  /** Stop after this many distinct tested inputs. */
  maxTested: number;
  /** Stop after this many latent vectors (Infinity: no cap). */
  maxLatentVectors: number;
  batchSize: number;
  /** Candidates and discriminatory candidates to keep for the naturalness report. */
  keep: number;
}

export interface ProbeResult {
  latentVectors: number;
  candidates: number;
  tested: number;
  /** New discriminatory inputs by the probe that found them. */
  found: { onBoundary: number; plus: number; minus: number };
  /** The first `keep` candidates and discriminatory candidates, rows of width d. */
  kept: {
    candidates: Float64Array;
    nCandidates: number;
    discriminatory: Float64Array;
    nDiscriminatory: number;
  };
}

/**
 * LIMI's search, until `maxTested` distinct tested inputs or `maxLatentVectors` latent vectors: fresh latent
 * vectors from the generator's latent distribution, each probed on the surrogate boundary (z0), then
 * at z0 + lambda·w, then at z0 - lambda·w, until one decodes to a new discriminatory input. A batch of
 * latent vectors takes three checker calls, one per probe, each over the vectors still undecided. A
 * candidate already tested is skipped (the checker returns its status without counting it again).
 */
export async function runProbes(
  generator: LatentGenerator,
  plane: Hyperplane,
  d: number,
  checker: CounterfactualChecker,
  ctl: RunController,
  rng: Rng,
  settings: ProbeSettings,
): Promise<ProbeResult> {
  const { k } = generator;
  const kept = {
    candidates: new Float64Array(settings.keep * d),
    nCandidates: 0,
    discriminatory: new Float64Array(settings.keep * d),
    nDiscriminatory: 0,
  };
  const found = { onBoundary: 0, plus: 0, minus: 0 };
  const names = ['onBoundary', 'plus', 'minus'] as const;
  let latentVectors = 0;
  let candidates = 0;
  let tested = 0;
  const prober = generator.prober?.(plane, settings.lambda) ?? null;
  probing: while (tested < settings.maxTested && latentVectors < settings.maxLatentVectors) {
    if (await ctl.checkpoint({ phase: 'probe', done: tested, total: settings.maxTested })) break;
    // Each candidate is at most one new tested input, so a batch never passes the cap.
    const m = Math.min(
      settings.batchSize,
      settings.maxTested - tested,
      settings.maxLatentVectors - latentVectors,
    );
    const z = generator.sampleLatent(rng, m);
    const probes = prober ? null : probeCandidates(z, m, plane, settings.lambda);
    prober?.load(z, m);
    latentVectors += m;
    let pending = Int32Array.from({ length: m }, (_, i) => i);
    for (let side = 0; side < 3; side++) {
      const name = names[side]!;
      if (pending.length === 0 || tested >= settings.maxTested) break;
      // Each probe is a model query over the batch: a stop between them ends the batch early.
      if (ctl.shouldStop()) break probing;
      const take = Math.min(pending.length, settings.maxTested - tested);
      let rows: Float64Array;
      if (prober) rows = prober.decode(SIDES[side]!, pending, take);
      else {
        const latent = new Float64Array(take * k);
        const from = probes![name];
        for (let q = 0; q < take; q++)
          latent.set(from.subarray(pending[q]! * k, (pending[q]! + 1) * k), q * k);
        rows = generator.decode(latent, take);
      }
      const { status, fresh } = checker.check(rows);
      candidates += take;
      const next: number[] = [];
      for (let q = 0; q < take; q++) {
        if (status[q] === CheckStatus.Skipped) {
          // Records which budget ran out. A skip that no counter explains is the query budget's: fewer
          // queries were left than the next input and its variants need.
          if (!ctl.shouldStop() && ctl.budget.maxQueries !== undefined) ctl.stopFor('query-budget');
          break probing;
        }
        if (kept.nCandidates < settings.keep)
          kept.candidates.set(rows.subarray(q * d, (q + 1) * d), kept.nCandidates++ * d);
        if (fresh[q] === 1) tested++;
        if (fresh[q] === 1 && status[q] === CheckStatus.Discriminatory) {
          found[name]++;
          if (kept.nDiscriminatory < settings.keep)
            kept.discriminatory.set(rows.subarray(q * d, (q + 1) * d), kept.nDiscriminatory++ * d);
        } else next.push(pending[q]!);
      }
      pending = Int32Array.from(next);
    }
  }
  return { latentVectors, candidates, tested, found, kept };
}

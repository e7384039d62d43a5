import { Hasher, OptionsError } from '@fb/core';
import type { LogitCoefficients } from './logistic.js';

/**
 * The logistic fits of CBS that depend only on their inputs: a design (the covariates X, with the
 * condition C as one more input or not), the labels (the protected class A, the data's or a
 * resample's), the L2 penalty and the model the solver starts from. The propensity model P(A = 1 | X)
 * and the resampling test's model P(A = 1 | X, C) are such fits; when two runs give them the same
 * inputs (the same data set audited for several models, or the same resampled class in every run
 * with the same seed whose draws do not depend on the model), the second run takes the first one's
 * fit instead of refitting. The fit is deterministic, so a run gives the same bytes with the cache
 * as without it.
 *
 * Entries are keyed by a hash of that content, never by a name, and checked on every hit against a
 * copy of the labels and the design they were fitted on (a hash collision is a miss, not a wrong
 * fit). The cache is a least-recently-used list bounded by its bytes (`maxBytes`, default 64 MB):
 * every entry counts its probabilities (8 bytes a row), its labels (1 byte a row) and, for the fits
 * kept as warm starts, its model.
 */
export interface FitCacheStats {
  hits: number;
  misses: number;
  entries: number;
  bytes: number;
  maxBytes: number;
}

/** A design's identity in the cache: its content hash, the L2 penalty and the design itself. */
export interface DesignKey {
  readonly key: string;
  readonly x: Float64Array;
}

interface Entry {
  design: Float64Array;
  labels: Uint8Array;
  /** P(label = 1) for every row of the design. */
  proba: Float64Array;
  model: LogitCoefficients | null;
  bytes: number;
}

/** What one fitted model is estimated to take, beyond its per-row arrays (measured: about 8.4 kB). */
const MODEL_BYTES = 9000;
const ENTRY_BYTES = 200;

export const DEFAULT_FIT_CACHE_BYTES = 64 * 1024 * 1024;

function hashLabels(labels: Uint8Array): string {
  return new Hasher().numbers(labels).digest();
}

function sameArray(u: ArrayLike<number>, v: ArrayLike<number>): boolean {
  if (u === v) return true;
  if (u.length !== v.length) return false;
  for (let i = 0; i < u.length; i++) if (!Object.is(u[i], v[i])) return false;
  return true;
}

export class FitCache {
  private readonly entries = new Map<string, Entry>();
  /** One canonical copy of each design's content, for checking a hit (held while an entry uses it). */
  private readonly designs = new Map<string, { x: Float64Array; users: number }>();
  private bytes = 0;
  private hits = 0;
  private misses = 0;

  constructor(private maxBytes = DEFAULT_FIT_CACHE_BYTES) {}

  /** Set the byte bound (0 turns the cache off); entries beyond it are dropped, oldest first. */
  configure(options: { maxBytes: number }): void {
    const { maxBytes } = options;
    if (!(Number.isFinite(maxBytes) && maxBytes >= 0)) {
      throw new OptionsError(
        'OPTIONS_INVALID',
        `fit cache maxBytes must be a finite number >= 0, got ${maxBytes}`,
        {
          option: '/maxBytes',
        },
      );
    }
    this.maxBytes = maxBytes;
    this.evict();
  }

  clear(): void {
    this.entries.clear();
    this.designs.clear();
    this.bytes = 0;
    this.hits = 0;
    this.misses = 0;
  }

  stats(): FitCacheStats {
    return {
      hits: this.hits,
      misses: this.misses,
      entries: this.entries.size,
      bytes: this.bytes,
      maxBytes: this.maxBytes,
    };
  }

  /** The key of a design: a hash of its schema, width and values, with the L2 penalty. */
  designKey(schemaText: string, width: number, x: Float64Array, l2: number): DesignKey {
    const key = new Hasher().string(schemaText).number(width).number(l2).numbers(x).digest();
    return { key, x };
  }

  /**
   * The fit for these inputs: from the cache when an entry has the same design, labels and warm start
   * (checked value by value), else `fit()`, stored. `keepModel`: also keep the fitted model (a warm
   * start of later fits); the probabilities are always kept. `warm` names the entry of the model the
   * fit starts from ('' for none): a different start reaches the optimum only to the solver's
   * tolerance, so it is part of the key. The probabilities returned may be shared: read them only.
   */
  fit(
    design: DesignKey,
    labels: Uint8Array,
    warm: string,
    keepModel: boolean,
    fit: () => { proba: Float64Array; model: LogitCoefficients },
  ): { proba: Float64Array; model: LogitCoefficients | null; key: string } {
    const key = `${design.key}|${hashLabels(labels)}|${warm}`;
    const found = this.entries.get(key);
    if (found !== undefined) {
      if (
        (found.model !== null || !keepModel) &&
        sameArray(found.labels, labels) &&
        sameArray(found.design, design.x)
      ) {
        this.hits++;
        this.entries.delete(key);
        this.entries.set(key, found);
        return { proba: found.proba, model: found.model, key };
      }
      this.drop(key, found);
    }
    this.misses++;
    const fitted = fit();
    const model = keepModel ? fitted.model : null;
    this.store(key, design, labels, fitted.proba, model);
    return { proba: fitted.proba, model, key };
  }

  private store(
    key: string,
    design: DesignKey,
    labels: Uint8Array,
    proba: Float64Array,
    model: LogitCoefficients | null,
  ): void {
    const bytes = ENTRY_BYTES + proba.length * 8 + labels.length + (model === null ? 0 : MODEL_BYTES);
    if (bytes > this.maxBytes) return;
    let shared = this.designs.get(design.key);
    // A design whose content differs from the one already under its hash is not cached.
    if (shared !== undefined && !sameArray(shared.x, design.x)) return;
    if (shared === undefined) {
      shared = { x: Float64Array.from(design.x), users: 0 };
      this.designs.set(design.key, shared);
      this.bytes += shared.x.length * 8;
    }
    shared.users++;
    this.entries.set(key, { design: shared.x, labels: Uint8Array.from(labels), proba, model, bytes });
    this.bytes += bytes;
    this.evict();
  }

  private drop(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
    const designKey = key.slice(0, key.indexOf('|'));
    const shared = this.designs.get(designKey);
    if (shared !== undefined && --shared.users === 0) {
      this.designs.delete(designKey);
      this.bytes -= shared.x.length * 8;
    }
  }

  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(key, entry);
    }
  }
}

/**
 * The cache every CBS run of this process (or worker thread) shares. `cbsFitCache.configure({
 * maxBytes: 0 })` turns it off; `stats()` counts its hits and misses.
 */
export const cbsFitCache = new FitCache();

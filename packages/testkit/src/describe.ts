import type { Detector } from '@fb/core';
import { describe, it } from 'vitest';
import { type ConformanceConfig, conformanceChecks } from './checks.js';

/** Register the conformance suite for `detector` as vitest tests. Call it at the top level of a test file. */
export function describeConformance<O extends object>(
  detector: Detector<O>,
  config: ConformanceConfig<O>,
): void {
  describe(`conformance: ${detector.id}`, () => {
    for (const check of conformanceChecks(detector, config)) {
      it(check.name, () => check.run(), 60_000);
    }
  });
}

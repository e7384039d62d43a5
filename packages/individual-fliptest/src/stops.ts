import type { StopReason } from '@fb/core';

/**
 * Whether a stop reason interrupts the transport and flipset phases. The TSN budget caps the sample
 * before it is drawn (every sampled member of S is one tested sample), so reaching it with that
 * sample is the planned end of the run, not an interruption; time, queries and abort interrupt.
 */
export function interrupts(reason: StopReason | null): boolean {
  return reason !== null && reason !== 'tested-budget';
}

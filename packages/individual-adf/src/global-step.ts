import type { Rng } from '@fb/core';
import type { SearchSpace } from './search-space.js';

/**
 * One global step of ADF. `g` and `gTwin` (at `gOff`) are the oriented gradients of an input and of
 * its twin (see `TwinGradients`). The position moves by `stepSize` units along sign(g) on every
 * non-protected attribute where sign(g) = sign(gTwin); if one of the two is zero on every such
 * attribute, the other alone decides. When the signs agree nowhere, one non-protected attribute is
 * drawn at random and moved along sign(g). Positions are clipped to the bounds.
 */
export function globalStep(
  space: SearchSpace,
  pos: Float64Array,
  pOff: number,
  g: Float64Array,
  gTwin: Float64Array,
  gOff: number,
  stepSize: number,
  rng: Rng,
): void {
  const { movable } = space;
  let gZero = true;
  let tZero = true;
  for (let k = 0; k < movable.length; k++) {
    const j = gOff + movable[k]!;
    if (g[j] !== 0) gZero = false;
    if (gTwin[j] !== 0) tZero = false;
  }
  const a = gZero ? gTwin : g;
  const b = tZero ? g : gTwin;
  let agreements = 0;
  for (let k = 0; k < movable.length; k++) {
    const j = movable[k]!;
    const s = Math.sign(a[gOff + j]!);
    if (s !== Math.sign(b[gOff + j]!)) continue;
    agreements++;
    if (s !== 0) space.move(pos, pOff, j, s * stepSize);
  }
  if (agreements === 0 && movable.length > 0) {
    const j = movable[rng.int(0, movable.length - 1)]!;
    const s = Math.sign(a[gOff + j]!);
    if (s !== 0) space.move(pos, pOff, j, s * stepSize);
  }
}

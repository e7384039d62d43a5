import { describe, expect, it } from 'vitest';
import { TREE_WASM } from '../src/wasm/tree-wasm.js';
import { lazyModule, wasmApi } from '../src/wasm-api.js';

describe('lazyModule', () => {
  it('compiles a module once, at the first call, and keeps it', () => {
    const module = lazyModule(TREE_WASM);
    const first = module();
    expect(first).toBeInstanceOf(wasmApi!.Module);
    expect(module()).toBe(first);
  });

  it('gives null for bytes the runtime cannot compile (the callers then fall back or throw)', () => {
    // A module header, then a section of an unknown id.
    const bytes = Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x7f, 0x00]);
    expect(lazyModule(bytes.toString('base64'))()).toBeNull();
    expect(lazyModule('')()).toBeNull();
  });
});

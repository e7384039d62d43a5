import { describe, expect, it } from 'vitest';
import { TREE_WASM } from '../src/wasm/tree-wasm.js';
import { instanceOn, KEEP_BYTES, lazyModule, WASM_PAGE, wasmApi, workingMemory } from '../src/wasm-api.js';

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

describe('workingMemory and instanceOn', () => {
  it('keeps one memory per thread, grown on demand, and gives a larger call a memory of its own', () => {
    const a = workingMemory(1000);
    expect(a.buffer.byteLength).toBeGreaterThanOrEqual(1000);
    const b = workingMemory(3 * WASM_PAGE + 1);
    expect(b).toBe(a);
    expect(b.buffer.byteLength).toBeGreaterThanOrEqual(4 * WASM_PAGE);
    const large = workingMemory(KEEP_BYTES + 1);
    expect(large).not.toBe(a);
    expect(large.buffer.byteLength).toBeGreaterThan(KEEP_BYTES);
    // The kept memory is not the large one, nor grown to its size.
    const c = workingMemory(1000);
    expect(c).toBe(a);
    expect(c.buffer.byteLength).toBeLessThanOrEqual(KEEP_BYTES);
  });

  it('makes one instance per module and memory', () => {
    const module = lazyModule(TREE_WASM)()!;
    const memory = workingMemory(WASM_PAGE);
    const own = new wasmApi!.Memory({ initial: 1 });
    expect(instanceOn(module, memory)).toBe(instanceOn(module, memory));
    expect(instanceOn(module, own)).not.toBe(instanceOn(module, memory));
  });
});

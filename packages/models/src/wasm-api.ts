/** The part of the WebAssembly API the kernels use (the package's TypeScript library has no DOM types). */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

export interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  compile(bytes: Uint8Array): Promise<object>;
  Instance: new (module: object, imports: object) => { readonly exports: unknown };
  Memory: new (descriptor: { initial: number; maximum?: number }) => WasmMemory;
  CompileError: new () => Error;
}

/** The runtime's WebAssembly, when it has one. */
export const wasmApi = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

/**
 * A module compiled from its base64 bytes at the first call, then kept; null where the runtime has no
 * WebAssembly or cannot compile it (SIMD, say): the caller then runs its JavaScript loops or throws. No
 * separate validation first: compiling validates, and a validation pass of its own took as long as the
 * compile (0.15-0.3 ms of a process's first fit per module).
 *
 * With `early`, the compile starts off the calling thread when the package is imported, and the first
 * call takes its result when it is ready (a program that imports the package, then awaits its data);
 * otherwise the first call compiles as without it.
 */
export function lazyModule(base64: string, early = false): () => object | null {
  let compiled: object | null | undefined;
  const bytes = Buffer.from(base64, 'base64');
  if (early && wasmApi) {
    wasmApi.compile(bytes).then(
      (module) => {
        compiled ??= module;
      },
      () => {
        compiled ??= null;
      },
    );
  }
  return () => {
    if (compiled === undefined) {
      try {
        compiled = wasmApi ? new wasmApi.Module(bytes) : null;
      } catch (e) {
        if (!(e instanceof wasmApi!.CompileError)) throw e;
        compiled = null;
      }
    }
    return compiled;
  };
}

/** Bytes in a WebAssembly memory page. */
export const WASM_PAGE = 65536;

/** Largest memory a kernel instance takes: WebAssembly addresses 32 bits (the last page is left unused). */
export const MAX_MEMORY = 2 ** 32 - WASM_PAGE;

/** Largest working memory a thread keeps between calls (see `workingMemory`). */
export const KEEP_BYTES = 64 * 2 ** 20;

let working: WasmMemory | undefined;

/**
 * A memory of at least `bytes` for one call's kernels: this thread's working memory, grown when needed
 * up to KEEP_BYTES and kept for the next call; beyond that, a memory of the call's own, not kept.
 *
 * The binner's kernels and a decision tree's builder take turns on it (a fit bins its table, then grows
 * its tree; calls are synchronous, one at a time on a thread): the tree grows in pages the binning has
 * already touched, where a memory of its own took a page fault for each page first written (390 in a
 * process's first fit on Adult). A call that grows the memory detaches the views made before it, so the
 * callers make their views for each call and read nothing left by another.
 */
export function workingMemory(bytes: number): WasmMemory {
  const pages = pagesFor(bytes);
  if (pages * WASM_PAGE > KEEP_BYTES) return ownMemory(bytes);
  if (!working) {
    working = ownMemory(bytes);
    return working;
  }
  const held = working.buffer.byteLength / WASM_PAGE;
  if (held < pages) working.grow(pages - held);
  return working;
}

/** A fresh memory of at least `bytes` (at least one page), for one call's kernels alone. */
export function ownMemory(bytes: number): WasmMemory {
  return new wasmApi!.Memory({ initial: pagesFor(bytes) });
}

function pagesFor(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / WASM_PAGE));
}

const instances = new WeakMap<object, WeakMap<WasmMemory, unknown>>();

/**
 * The module's instance on `memory`, made once per module and memory and kept while the memory lives: V8
 * calls a new instance's exported functions through a slow generic wrapper until each has been called
 * often enough (a good part of a small tree's fit).
 */
export function instanceOn(module: object, memory: WasmMemory): unknown {
  let byMemory = instances.get(module);
  if (!byMemory) {
    byMemory = new WeakMap();
    instances.set(module, byMemory);
  }
  let exports = byMemory.get(memory);
  if (exports === undefined) {
    exports = new wasmApi!.Instance(module, { env: { memory } }).exports;
    byMemory.set(memory, exports);
  }
  return exports;
}

/** A region of the module's memory: its byte offset and length in elements. */
export interface Region {
  at: number;
  length: number;
}

/** Regions laid out one after another from `start`, each on a 16-byte boundary. */
export function layout(start: number) {
  let end = start;
  return {
    take(length: number, bytes = 8): Region {
      const r = { at: end, length };
      end += Math.ceil((length * bytes) / 16) * 16;
      return r;
    },
    get end() {
      return end;
    },
  };
}

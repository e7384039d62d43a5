/** The part of the WebAssembly API the kernels use (the package's TypeScript library has no DOM types). */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

export interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
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
 */
export function lazyModule(base64: string): () => object | null {
  let compiled: object | null | undefined;
  return () => {
    if (compiled === undefined) {
      try {
        compiled = wasmApi ? new wasmApi.Module(Buffer.from(base64, 'base64')) : null;
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

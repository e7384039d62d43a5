/** The part of the WebAssembly API the kernels use (the package's TypeScript library has no DOM types). */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

export interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: unknown };
  Memory: new (descriptor: { initial: number; maximum?: number }) => WasmMemory;
}

/** The runtime's WebAssembly, when it has one. */
export const wasmApi = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

/**
 * A module compiled from its base64 bytes at the first call, then kept; null where the runtime has no
 * WebAssembly or cannot run it (SIMD, say): the caller then runs its JavaScript loops.
 */
export function lazyModule(base64: string): () => object | null {
  let compiled: object | null | undefined;
  return () => {
    if (compiled === undefined) {
      const bytes = Buffer.from(base64, 'base64');
      compiled = wasmApi?.validate(bytes) ? new wasmApi.Module(bytes) : null;
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

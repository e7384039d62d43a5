// WebAssembly text to bytes, with wabt's SIMD feature.
import wabtInit from 'wabt';

export async function compileWat(text, name = 'module.wat') {
  const wabt = await wabtInit();
  const module = wabt.parseWat(name, text, { simd: true });
  try {
    module.validate();
    return module.toBinary({ log: false, write_debug_names: false }).buffer;
  } finally {
    module.destroy();
  }
}

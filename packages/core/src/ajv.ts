import type { ErrorObject } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as formatsModule from 'ajv-formats';

type FormatsPlugin = (ajv: Ajv2020) => unknown;

// ajv-formats is CommonJS: depending on the loader its plugin is the module itself, its `default`,
// or the `default` of that.
function unwrapPlugin(mod: unknown): FormatsPlugin {
  let m = mod;
  for (let depth = 0; depth < 3 && typeof m !== 'function'; depth++) m = (m as { default?: unknown }).default;
  if (typeof m !== 'function') throw new Error('ajv-formats did not load as a plugin function');
  return m as FormatsPlugin;
}
const addFormats = unwrapPlugin(formatsModule);

/** An ajv instance for draft 2020-12 schemas with formats; `useDefaults` fills documented defaults. */
export function makeAjv(useDefaults: boolean): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, useDefaults, allowUnionTypes: true });
  addFormats(ajv);
  return ajv;
}

/** One readable line per ajv error, naming the JSON pointer at fault. */
export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .map((e) => {
      const at = e.instancePath || '/';
      if (e.keyword === 'additionalProperties') {
        return `${at}: unknown property "${(e.params as { additionalProperty: string }).additionalProperty}"`;
      }
      return `${at}: ${e.message ?? e.keyword}`;
    })
    .join('; ');
}

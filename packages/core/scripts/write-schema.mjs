// Writes the DiscoveryResult JSON Schema next to the build, for tools outside JavaScript.
import { writeFileSync } from 'node:fs';
import { discoveryResultSchema } from '../dist/index.js';

writeFileSync(
  new URL('../dist/result.schema.json', import.meta.url),
  `${JSON.stringify(discoveryResultSchema, null, 2)}\n`,
);

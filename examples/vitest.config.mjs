import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.mjs'],
    // Each example runs as its own process on real data; a loaded two-core machine is slow.
    testTimeout: 180_000,
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.mjs'],
    // The compiler checks every README at once; a loaded two-core machine makes it slow.
    testTimeout: 180_000,
  },
});

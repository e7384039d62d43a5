import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Templates hold test files of the packages they generate; only the tool's own tests run here.
    include: ['test/**/*.test.mjs'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.mjs'],
    // A whole case file runs in one worker thread; its cases have their own watchdog.
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['e2e/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    // Polls wait for the browser; a busy machine may need more than the default second.
    expect: { poll: { timeout: 15_000 } },
  },
});

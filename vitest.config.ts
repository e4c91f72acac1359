import { defineConfig } from 'vitest/config';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // One graphql realm for type-graphql, Apollo and the tests (see stack-notes).
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql/index.js') }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['reflect-metadata'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at a time on two cores (the default leaves one core idle): most files wait on
    // PostgreSQL or on processes they start rather than compute.
    maxWorkers: 2,
  },
});

import { defineConfig } from 'vitest/config';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * Files that must have a process of their own: they replace a module of the renderer (`vi.mock`)
 * and patch pdfkit's prototype, which would reach every file after them in a shared process, and
 * they measure caches that start cold, or the heap, which other files' leftovers would blur.
 */
const OWN_PROCESS = ['test/unit/invoice-pdf-fragments.test.ts', 'test/unit/invoice-pdf-heap.test.ts'];

/**
 * The suite's configuration for the test files `include` matches, plus OWN_PROCESS (unit tests,
 * which every suite runs). Every other file shares its worker process with the files before it
 * (`isolate: false`): the application is imported once per worker instead of once per file, some
 * two seconds each. Files start and close what they use (apps, databases, processes) and leave no
 * global state behind; OWN_PROCESS lists the exceptions.
 */
export function suite(include: string[], globalSetup: string[]) {
  return defineConfig({
    resolve: {
      // One copy of graphql for type-graphql, Apollo and the tests: vite would load its ESM entry
      // beside the CommonJS one the libraries require, and graphql refuses a schema from another copy.
      alias: [{ find: /^graphql$/, replacement: require.resolve('graphql/index.js') }],
    },
    test: {
      globalSetup,
      setupFiles: ['reflect-metadata'],
      testTimeout: 30_000,
      hookTimeout: 60_000,
      pool: 'forks',
      // Two files at a time on two cores (the default leaves one core idle): most files wait on
      // PostgreSQL or on processes they start rather than compute.
      maxWorkers: 2,
      projects: [
        { extends: true, test: { name: 'shared', include, exclude: OWN_PROCESS, isolate: false } },
        { extends: true, test: { name: 'own-process', include: OWN_PROCESS, isolate: true } },
      ],
    },
  });
}

export default suite(['test/**/*.test.ts'], ['test/global-setup.ts']);

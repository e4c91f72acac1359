import { suite } from './vitest.config.js';

/** Unit tests of pure code: no database, so no template database to migrate first. */
export default suite(['test/unit/**/*.test.ts', 'test/sepa/**/*.test.ts'], []);

import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/** Unit tests of pure code: no database, so no template database to migrate first. */
export default defineConfig({ ...base, test: { ...base.test, include: ['test/unit/**/*.test.ts', 'test/sepa/**/*.test.ts'], globalSetup: [] } });

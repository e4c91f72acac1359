import type { TestProject } from 'vitest/node';
import { migrate, openOrm } from '../core/persistence/orm.js';
import { databaseUrl, withAdmin } from './support/database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: string;
  }
}

/** Migrates one template database per run; every test file clones it (CREATE DATABASE … TEMPLATE). */
export default async function setup(project: TestProject) {
  const template = `ebbs_template_${process.pid}_${Date.now()}`;
  await withAdmin((c) => c.query(`CREATE DATABASE "${template}"`));
  const orm = await openOrm({ clientUrl: databaseUrl(template), poolSize: 1 });
  try {
    await migrate(orm);
  } finally {
    await orm.close();
  }
  project.provide('templateDatabase', template);
  return async () => {
    await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`));
  };
}

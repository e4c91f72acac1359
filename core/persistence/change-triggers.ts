import type { TriggerDef } from '@mikro-orm/core';
import type { ChangeTopic } from '../caching/change-feed.js';

type Event = 'insert' | 'update' | 'delete';

/**
 * The trigger (function of migration 20261125100000) that announces a change of `table`'s rows to the
 * processes caching them (`pg_notify('ebbs_changes', '<topic>:<account id>')`); an update counts
 * only when it sets one of `columns`, or any column when none are named. Declared here so that
 * MikroORM knows the trigger is wanted and its schema diff stays empty.
 */
export function changeTrigger(table: string, topic: ChangeTopic, events: Event[], columns: string[] = []): TriggerDef {
  const name = `${table}_notify_change`;
  const clauses = events.map((event) => (event === 'update' && columns.length > 0 ? `update of ${columns.join(', ')}` : event));
  return {
    name,
    timing: 'after',
    events,
    expression: `create trigger "${name}" after ${clauses.join(' or ')} on "${table}" for each row execute function "ebbs_notify_change"('${topic}')`,
  };
}

import { Migration } from '@mikro-orm/migrations';

/**
 * Pending deliveries by endpoint and next attempt, in place of by endpoint and entity: a round
 * reads the deliveries of its endpoint waiting for a retry directly (few), where it looked up the
 * earlier deliveries of each candidate's entity, a lookup that stale statistics after a burst
 * planned as a scan of every earlier pending delivery of the endpoint.
 */
export class Migration20261125110000 extends Migration {

  override name = 'Migration20261125110000';

  override up(): void | Promise<void> {
    this.addSql(`drop index "webhook_deliveries_pending_by_entity";`);
    this.addSql(`create index "webhook_deliveries_pending_by_endpoint_due" on "webhook_deliveries" ("endpoint_id", "next_attempt_at") where state = 'pending';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "webhook_deliveries_pending_by_endpoint_due";`);
    this.addSql(`create index "webhook_deliveries_pending_by_entity" on "webhook_deliveries" ("endpoint_id", "entity_id", "event_sequence") where state = 'pending';`);
  }

}

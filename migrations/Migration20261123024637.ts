import { Migration } from '@mikro-orm/migrations';

export class Migration20261123024637 extends Migration {

  override name = 'Migration20261123024637';

  override up(): void | Promise<void> {
    this.addSql(`create table "webhook_endpoints" ("id" uuid not null, "account_id" uuid not null, "url" varchar(2000) not null, "events" jsonb not null, "headers" jsonb not null, "enabled" boolean not null, "secret" text not null, "previous_secret" text null, "previous_secret_expires_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`create index "webhook_endpoints_account_id_created_at_id_index" on "webhook_endpoints" ("account_id", "created_at", "id");`);

    this.addSql(`create table "webhook_deliveries" ("id" uuid not null, "account_id" uuid not null, "endpoint_id" uuid not null, "event_id" uuid not null, "event_type" varchar(40) not null, "entity_id" uuid not null, "event_sequence" bigint not null, "state" varchar(16) not null, "attempts" jsonb not null, "next_attempt_at" timestamptz(3) null, "delivered_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`create index "webhook_deliveries_account_id_endpoint_id_created_at_index" on "webhook_deliveries" ("account_id", "endpoint_id", "created_at");`);
    this.addSql(`create index "webhook_deliveries_pending_by_entity" on "webhook_deliveries" ("endpoint_id", "entity_id", "event_sequence") where state = 'pending';`);
    this.addSql(`create index "webhook_deliveries_pending_due" on "webhook_deliveries" ("next_attempt_at") where state = 'pending';`);

    this.addSql(`create table "webhook_leases" ("endpoint_id" uuid not null, "account_id" uuid not null, "token" uuid not null, "until" timestamptz(3) not null, primary key ("endpoint_id"));`);

    this.addSql(`alter table "webhook_endpoints" add constraint "webhook_endpoints_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);

    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_endpoint_id_foreign" foreign key ("endpoint_id") references "webhook_endpoints" ("id") on delete cascade;`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_event_id_foreign" foreign key ("event_id") references "events" ("id");`);

    this.addSql(`alter table "webhook_leases" add constraint "webhook_leases_endpoint_id_foreign" foreign key ("endpoint_id") references "webhook_endpoints" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "webhook_leases" add constraint "webhook_leases_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "webhook_deliveries" drop constraint "webhook_deliveries_endpoint_id_foreign";`);
    this.addSql(`alter table "webhook_leases" drop constraint "webhook_leases_endpoint_id_foreign";`);

    this.addSql(`drop table if exists "webhook_endpoints" cascade;`);
    this.addSql(`drop table if exists "webhook_deliveries" cascade;`);
    this.addSql(`drop table if exists "webhook_leases" cascade;`);
  }

}

import { Migration } from '@mikro-orm/migrations';

export class Migration20261123023515 extends Migration {

  override name = 'Migration20261123023515';

  override up(): void | Promise<void> {
    this.addSql(`create table "events" ("id" uuid not null, "account_id" uuid not null, "sequence" bigserial, "type" varchar(40) not null, "user_id" uuid null, "site_ids" jsonb not null, "entity_id" uuid not null, "data" jsonb not null, "created_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`alter table "events" add constraint "events_sequence_unique" unique ("sequence");`);
    this.addSql(`create index "events_account_id_sequence_index" on "events" ("account_id", "sequence");`);
    this.addSql(`create index "events_account_id_type_sequence_index" on "events" ("account_id", "type", "sequence");`);
    this.addSql(`create index "events_account_id_created_at_index" on "events" ("account_id", "created_at");`);

    this.addSql(`alter table "events" add constraint "events_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "events" cascade;`);
  }

}

import { Migration } from '@mikro-orm/migrations';

export class Migration20261123003558 extends Migration {

  override name = 'Migration20261123003558';

  override up(): void | Promise<void> {
    this.addSql(`create table "balancing_dirty_ranges" ("id" uuid not null, "account_id" uuid not null, "site_id" uuid not null, "from_at" timestamptz(3) not null, "to_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`create index "balancing_dirty_ranges_account_id_site_id_index" on "balancing_dirty_ranges" ("account_id", "site_id");`);

    this.addSql(`create table "balancing_days" ("account_id" uuid not null, "site_id" uuid not null, "day" date not null, "states" smallint[] not null, "balanced_at" timestamptz(3) not null, primary key ("account_id", "site_id", "day"));`);

    this.addSql(`create table "balance_days" ("account_id" uuid not null, "site_id" uuid not null, "day" date not null, "kind" varchar(8) not null, "debitor_id" uuid not null, "creditor_id" uuid not null, "values" bigint[] not null, primary key ("account_id", "site_id", "day", "kind", "debitor_id", "creditor_id"));`);

    this.addSql(`alter table "balancing_dirty_ranges" add constraint "balancing_dirty_ranges_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);
    this.addSql(`alter table "balancing_dirty_ranges" add constraint "balancing_dirty_ranges_site_id_foreign" foreign key ("site_id") references "sites" ("id");`);

    this.addSql(`alter table "balancing_days" add constraint "balancing_days_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);
    this.addSql(`alter table "balancing_days" add constraint "balancing_days_site_id_foreign" foreign key ("site_id") references "sites" ("id");`);

    this.addSql(`alter table "balance_days" add constraint "balance_days_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);
    this.addSql(`alter table "balance_days" add constraint "balance_days_site_id_foreign" foreign key ("site_id") references "sites" ("id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "balancing_dirty_ranges" cascade;`);
    this.addSql(`drop table if exists "balancing_days" cascade;`);
    this.addSql(`drop table if exists "balance_days" cascade;`);
  }

}

import { Migration } from '@mikro-orm/migrations';

export class Migration20261123013230 extends Migration {

  override name = 'Migration20261123013230';

  override up(): void | Promise<void> {
    this.addSql(`create table "tax_rates" ("id" uuid not null, "account_id" uuid not null, "name" varchar(100) not null, "percentage" int not null, "valid_from" date not null, "valid_until" date null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`create index "tax_rates_account_id_created_at_id_index" on "tax_rates" ("account_id", "created_at", "id");`);
    this.addSql(`create index "tax_rates_account_id_name_index" on "tax_rates" ("account_id", "name");`);

    this.addSql(`alter table "tax_rates" add constraint "tax_rates_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "tax_rates" cascade;`);
  }

}

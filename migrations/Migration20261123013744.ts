import { Migration } from '@mikro-orm/migrations';

export class Migration20261123013744 extends Migration {

  override name = 'Migration20261123013744';

  override up(): void | Promise<void> {
    this.addSql(`create table "price_component_groups" ("id" uuid not null, "account_id" uuid not null, "electricity_product_id" uuid not null, "name" varchar(200) not null, "position" int not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`create index "price_component_groups_account_id_created_at_id_index" on "price_component_groups" ("account_id", "created_at", "id");`);
    this.addSql(`create index "price_component_groups_account_id_electricity_product_id_index" on "price_component_groups" ("account_id", "electricity_product_id");`);

    this.addSql(`create table "price_components" ("id" uuid not null, "account_id" uuid not null, "price_component_group_id" uuid not null, "name" varchar(200) not null, "kind" varchar(16) not null, "unit" varchar(8) not null, "tax_rate_id" uuid not null, "custom_attributes" jsonb not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`create index "price_components_account_id_created_at_id_index" on "price_components" ("account_id", "created_at", "id");`);
    this.addSql(`create index "price_components_account_id_price_component_group_id_index" on "price_components" ("account_id", "price_component_group_id");`);

    this.addSql(`create table "prices" ("id" uuid not null, "account_id" uuid not null, "price_component_id" uuid not null, "valid_from" date not null, "amount" bigint not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`create index "prices_account_id_created_at_id_index" on "prices" ("account_id", "created_at", "id");`);
    this.addSql(`alter table "prices" add constraint "prices_account_id_price_component_id_valid_from_unique" unique ("account_id", "price_component_id", "valid_from");`);

    this.addSql(`alter table "price_component_groups" add constraint "price_component_groups_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);
    this.addSql(`alter table "price_component_groups" add constraint "price_component_groups_electricity_product_id_foreign" foreign key ("electricity_product_id") references "electricity_products" ("id");`);

    this.addSql(`alter table "price_components" add constraint "price_components_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);
    this.addSql(`alter table "price_components" add constraint "price_components_price_component_group_id_foreign" foreign key ("price_component_group_id") references "price_component_groups" ("id");`);
    this.addSql(`alter table "price_components" add constraint "price_components_tax_rate_id_foreign" foreign key ("tax_rate_id") references "tax_rates" ("id");`);

    this.addSql(`alter table "prices" add constraint "prices_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);
    this.addSql(`alter table "prices" add constraint "prices_price_component_id_foreign" foreign key ("price_component_id") references "price_components" ("id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "price_components" drop constraint "price_components_price_component_group_id_foreign";`);
    this.addSql(`alter table "prices" drop constraint "prices_price_component_id_foreign";`);

    this.addSql(`drop table if exists "price_component_groups" cascade;`);
    this.addSql(`drop table if exists "price_components" cascade;`);
    this.addSql(`drop table if exists "prices" cascade;`);
  }

}

import { Migration } from '@mikro-orm/migrations';

export class Migration20261123000300_master_data extends Migration {

  override name = 'Migration20261123000300_master_data';

  override up(): void | Promise<void> {
    this.addSql(`create table "custom_attributes" ("id" uuid not null, "account_id" uuid not null, "title" varchar(200) not null, "name" varchar(63) not null, "entity" varchar(32) not null, "type" varchar(16) not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`alter table "custom_attributes" add constraint "custom_attributes_account_id_entity_name_unique" unique ("account_id", "entity", "name");`);

    this.addSql(`create table "customers" ("id" uuid not null, "account_id" uuid not null, "company_name" varchar(200) null, "address" jsonb null, "delivery_address" jsonb null, "invoice_email" varchar(320) null, "email" varchar(320) null, "number" varchar(100) null, "salutation" varchar(200) null, "title" varchar(200) null, "first_name" varchar(200) null, "last_name" varchar(200) null, "phone1" varchar(200) null, "phone2" varchar(200) null, "custom_attributes" jsonb not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`create index "customers_account_id_created_at_id_index" on "customers" ("account_id", "created_at", "id");`);
    this.addSql(`alter table "customers" add constraint "customers_account_id_number_unique" unique ("account_id", "number");`);

    this.addSql(`create table "electricity_products" ("id" uuid not null, "account_id" uuid not null, "name" varchar(200) not null, "description" text null, "prepayment_configuration" jsonb null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`create index "electricity_products_account_id_created_at_id_index" on "electricity_products" ("account_id", "created_at", "id");`);

    this.addSql(`create table "mpos" ("id" uuid not null, "account_id" uuid not null, "channel" varchar(100) not null, "provider" varchar(100) not null, "name" varchar(200) not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`create index "mpos_account_id_created_at_id_index" on "mpos" ("account_id", "created_at", "id");`);

    this.addSql(`create table "meters" ("id" uuid not null, "account_id" uuid not null, "site_id" uuid not null, "mpo_id" uuid null, "direction" varchar(16) not null, "identifier" varchar(100) not null, "serial" varchar(200) null, "start_date" timestamptz(3) not null, "measuring" varchar(32) not null, "grid" boolean not null, "formula" jsonb null, "custom_attributes" jsonb not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`create index "meters_account_id_created_at_id_index" on "meters" ("account_id", "created_at", "id");`);
    this.addSql(`create index "meters_account_id_site_id_index" on "meters" ("account_id", "site_id");`);
    this.addSql(`alter table "meters" add constraint "meters_account_id_identifier_unique" unique ("account_id", "identifier");`);

    this.addSql(`create table "meter_balancing_settings" ("id" uuid not null, "account_id" uuid not null, "site_id" uuid not null, "meter_id" uuid not null, "balancing" varchar(32) not null, "start_date" date not null, "end_date" date null, "priority" int null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`create index "meter_balancing_settings_account_id_created_at_id_index" on "meter_balancing_settings" ("account_id", "created_at", "id");`);
    this.addSql(`create index "meter_balancing_settings_account_id_site_id_index" on "meter_balancing_settings" ("account_id", "site_id");`);
    this.addSql(`create index "meter_balancing_settings_account_id_meter_id_index" on "meter_balancing_settings" ("account_id", "meter_id");`);

    this.addSql(`create table "contracts" ("id" uuid not null, "account_id" uuid not null, "customer_id" uuid not null, "electricity_product_id" uuid not null, "site_id" uuid not null, "dunning_block" boolean not null, "start_date" date not null, "end_date" date null, "number" varchar(100) not null, "custom_attributes" jsonb not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`create index "contracts_account_id_created_at_id_index" on "contracts" ("account_id", "created_at", "id");`);
    this.addSql(`create index "contracts_account_id_site_id_index" on "contracts" ("account_id", "site_id");`);
    this.addSql(`create index "contracts_account_id_customer_id_index" on "contracts" ("account_id", "customer_id");`);
    this.addSql(`alter table "contracts" add constraint "contracts_account_id_number_unique" unique ("account_id", "number");`);

    this.addSql(`create table "contract_meters" ("id" uuid not null, "account_id" uuid not null, "contract_id" uuid not null, "site_id" uuid not null, "meter_id" uuid not null, "start_date" date not null, "end_date" date null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`create index "contract_meters_account_id_created_at_id_index" on "contract_meters" ("account_id", "created_at", "id");`);
    this.addSql(`create index "contract_meters_account_id_meter_id_start_date_index" on "contract_meters" ("account_id", "meter_id", "start_date");`);
    this.addSql(`create index "contract_meters_account_id_contract_id_index" on "contract_meters" ("account_id", "contract_id");`);

    this.addSql(`alter table "custom_attributes" add constraint "custom_attributes_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);

    this.addSql(`alter table "customers" add constraint "customers_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);

    this.addSql(`alter table "electricity_products" add constraint "electricity_products_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);

    this.addSql(`alter table "mpos" add constraint "mpos_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);

    this.addSql(`alter table "meters" add constraint "meters_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);
    this.addSql(`alter table "meters" add constraint "meters_site_id_foreign" foreign key ("site_id") references "sites" ("id");`);
    this.addSql(`alter table "meters" add constraint "meters_mpo_id_foreign" foreign key ("mpo_id") references "mpos" ("id") on delete set null;`);

    this.addSql(`alter table "meter_balancing_settings" add constraint "meter_balancing_settings_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);
    this.addSql(`alter table "meter_balancing_settings" add constraint "meter_balancing_settings_site_id_foreign" foreign key ("site_id") references "sites" ("id");`);
    this.addSql(`alter table "meter_balancing_settings" add constraint "meter_balancing_settings_meter_id_foreign" foreign key ("meter_id") references "meters" ("id");`);

    this.addSql(`alter table "contracts" add constraint "contracts_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);
    this.addSql(`alter table "contracts" add constraint "contracts_customer_id_foreign" foreign key ("customer_id") references "customers" ("id");`);
    this.addSql(`alter table "contracts" add constraint "contracts_electricity_product_id_foreign" foreign key ("electricity_product_id") references "electricity_products" ("id");`);
    this.addSql(`alter table "contracts" add constraint "contracts_site_id_foreign" foreign key ("site_id") references "sites" ("id");`);

    this.addSql(`alter table "contract_meters" add constraint "contract_meters_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);
    this.addSql(`alter table "contract_meters" add constraint "contract_meters_contract_id_foreign" foreign key ("contract_id") references "contracts" ("id");`);
    this.addSql(`alter table "contract_meters" add constraint "contract_meters_site_id_foreign" foreign key ("site_id") references "sites" ("id");`);
    this.addSql(`alter table "contract_meters" add constraint "contract_meters_meter_id_foreign" foreign key ("meter_id") references "meters" ("id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "contracts" drop constraint "contracts_customer_id_foreign";`);
    this.addSql(`alter table "contracts" drop constraint "contracts_electricity_product_id_foreign";`);
    this.addSql(`alter table "meters" drop constraint "meters_mpo_id_foreign";`);
    this.addSql(`alter table "meter_balancing_settings" drop constraint "meter_balancing_settings_meter_id_foreign";`);
    this.addSql(`alter table "contract_meters" drop constraint "contract_meters_meter_id_foreign";`);
    this.addSql(`alter table "contract_meters" drop constraint "contract_meters_contract_id_foreign";`);

    this.addSql(`drop table if exists "custom_attributes" cascade;`);
    this.addSql(`drop table if exists "customers" cascade;`);
    this.addSql(`drop table if exists "electricity_products" cascade;`);
    this.addSql(`drop table if exists "mpos" cascade;`);
    this.addSql(`drop table if exists "meters" cascade;`);
    this.addSql(`drop table if exists "meter_balancing_settings" cascade;`);
    this.addSql(`drop table if exists "contracts" cascade;`);
    this.addSql(`drop table if exists "contract_meters" cascade;`);
  }

}

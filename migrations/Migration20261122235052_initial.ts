import { Migration } from '@mikro-orm/migrations';

export class Migration20261122235052_initial extends Migration {

  override name = 'Migration20261122235052_initial';

  override up(): void | Promise<void> {
    this.addSql(`create table "accounts" ("account_id" uuid not null, "company_name" varchar(200) not null, "timezone" varchar(64) not null, "currency" varchar(3) not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, primary key ("account_id"));`);

    this.addSql(`create table "sites" ("id" uuid not null, "account_id" uuid not null, "name" varchar(200) not null, "type" varchar(32) not null, "balance_resolution" varchar(8) not null, "address" jsonb not null, "custom_attributes" jsonb not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`create index "sites_account_id_created_at_id_index" on "sites" ("account_id", "created_at", "id");`);

    this.addSql(`create table "users" ("id" uuid not null, "account_id" uuid not null, "first_name" varchar(200) null, "last_name" varchar(200) null, "phone1" varchar(200) null, "phone2" varchar(200) null, "email" varchar(320) not null, "role" varchar(16) not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`alter table "users" add constraint "users_account_id_email_unique" unique ("account_id", "email");`);

    this.addSql(`create table "api_tokens" ("id" uuid not null, "account_id" uuid not null, "user_id" uuid not null, "token_hash" varchar(64) not null, "created_at" timestamptz(3) not null, "revoked_at" timestamptz(3) null, primary key ("id"));`);
    this.addSql(`alter table "api_tokens" add constraint "api_tokens_token_hash_unique" unique ("token_hash");`);

    this.addSql(`create table "refresh_tokens" ("id" uuid not null, "account_id" uuid not null, "api_token_id" uuid not null, "family_id" uuid not null, "token_hash" varchar(64) not null, "expires_at" timestamptz(3) not null, "used_at" timestamptz(3) null, "revoked_at" timestamptz(3) null, "created_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`create index "refresh_tokens_family_id_index" on "refresh_tokens" ("family_id");`);
    this.addSql(`alter table "refresh_tokens" add constraint "refresh_tokens_token_hash_unique" unique ("token_hash");`);

    this.addSql(`alter table "sites" add constraint "sites_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);

    this.addSql(`alter table "users" add constraint "users_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);

    this.addSql(`alter table "api_tokens" add constraint "api_tokens_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);
    this.addSql(`alter table "api_tokens" add constraint "api_tokens_user_id_foreign" foreign key ("user_id") references "users" ("id");`);

    this.addSql(`alter table "refresh_tokens" add constraint "refresh_tokens_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);
    this.addSql(`alter table "refresh_tokens" add constraint "refresh_tokens_api_token_id_foreign" foreign key ("api_token_id") references "api_tokens" ("id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "sites" drop constraint "sites_account_id_foreign";`);
    this.addSql(`alter table "users" drop constraint "users_account_id_foreign";`);
    this.addSql(`alter table "api_tokens" drop constraint "api_tokens_account_id_foreign";`);
    this.addSql(`alter table "refresh_tokens" drop constraint "refresh_tokens_account_id_foreign";`);
    this.addSql(`alter table "api_tokens" drop constraint "api_tokens_user_id_foreign";`);
    this.addSql(`alter table "refresh_tokens" drop constraint "refresh_tokens_api_token_id_foreign";`);

    this.addSql(`drop table if exists "accounts" cascade;`);
    this.addSql(`drop table if exists "sites" cascade;`);
    this.addSql(`drop table if exists "users" cascade;`);
    this.addSql(`drop table if exists "api_tokens" cascade;`);
    this.addSql(`drop table if exists "refresh_tokens" cascade;`);
  }

}

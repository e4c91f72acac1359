import { Migration } from '@mikro-orm/migrations';

/**
 * SEPA payment runs and their items. An item keeps what the file says about its payment (payee or
 * payer, IBAN, mandate, sequence type, remittance), so the file is the same at every download; a
 * partial unique index keeps a payment in at most one open run.
 */
export class Migration20261124110000 extends Migration {

  override name = 'Migration20261124110000';

  override up(): void | Promise<void> {
    this.addSql(`create table "payment_runs" ("account_id" uuid not null, "id" uuid not null, "type" varchar(16) not null, "state" varchar(16) not null, "collection_date" date not null, "due_until" date not null, "site_ids" jsonb null, "seller" jsonb not null, "payments_count" int not null, "control_sum" bigint not null, "skipped" jsonb not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, "closed_at" timestamptz(3) null, "cancelled_at" timestamptz(3) null, primary key ("account_id", "id"));`);
    this.addSql(`create index "payment_runs_account_id_created_at_id_index" on "payment_runs" ("account_id", "created_at", "id");`);

    this.addSql(`create table "payment_run_items" ("account_id" uuid not null, "payment_run_id" uuid not null, "payment_id" uuid not null, "open" boolean not null, "position" int not null, "customer_id" uuid not null, "contract_id" uuid not null, "payment_type" varchar(16) not null, "amount" bigint not null, "payment_method_id" uuid not null, "sequence_type" varchar(4) null, "mandate_reference" varchar(35) null, "mandate_signed_at" date null, "name" varchar(200) not null, "iban" varchar(34) not null, "bic" varchar(11) null, "address" jsonb null, "remittance" varchar(200) not null, "end_to_end_id" varchar(35) not null, "created_at" timestamptz(3) not null, primary key ("account_id", "payment_run_id", "payment_id"));`);
    this.addSql(`create index "payment_run_items_account_id_payment_method_id_index" on "payment_run_items" ("account_id", "payment_method_id");`);
    this.addSql(`create unique index "payment_run_items_one_open_run_per_payment" on "payment_run_items" ("account_id", "payment_id") where open;`);

    this.addSql(`alter table "payment_runs" add constraint "payment_runs_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);
    this.addSql(`alter table "payment_run_items" add constraint "payment_run_items_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);
    this.addSql(`alter table "payment_run_items" add constraint "payment_run_items_account_id_payment_run_id_foreign" foreign key ("account_id", "payment_run_id") references "payment_runs" ("account_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "payment_run_items" add constraint "payment_run_items_account_id_payment_id_foreign" foreign key ("account_id", "payment_id") references "payments" ("account_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "payment_run_items" add constraint "payment_run_items_account_id_customer_id_foreign" foreign key ("account_id", "customer_id") references "customers" ("account_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "payment_run_items" add constraint "payment_run_items_account_id_contract_id_foreign" foreign key ("account_id", "contract_id") references "contracts" ("account_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "payment_run_items" add constraint "payment_run_items_account_id_payment_method_id_foreign" foreign key ("account_id", "payment_method_id") references "payment_methods" ("account_id", "id") on update no action on delete no action;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "payment_run_items" cascade;`);
    this.addSql(`drop table if exists "payment_runs" cascade;`);
  }

}

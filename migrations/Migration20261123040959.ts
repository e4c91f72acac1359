import { Migration } from '@mikro-orm/migrations';

export class Migration20261123040959 extends Migration {

  override name = 'Migration20261123040959';

  override up(): void | Promise<void> {
    this.addSql(`create extension if not exists btree_gist;`);
    this.addSql(`create table "bill_runs" ("id" uuid not null, "account_id" uuid not null, "period_start" date not null, "period_end" date not null, "site_ids" jsonb null, "state" varchar(16) not null, "phase" varchar(16) not null, "failure" text null, "lease_token" uuid null, "lease_until" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, "completed_at" timestamptz(3) null, primary key ("id"));`);
    this.addSql(`create index "bill_runs_account_id_created_at_id_index" on "bill_runs" ("account_id", "created_at", "id");`);
    this.addSql(`create index "bill_runs_state_index" on "bill_runs" ("state");`);

    this.addSql(`create table "invoice_counters" ("account_id" uuid not null, "kind" varchar(16) not null, "year" int not null, "last_number" int not null, primary key ("account_id", "kind", "year"));`);

    this.addSql(`create table "invoices" ("id" uuid not null, "account_id" uuid not null, "kind" varchar(16) not null, "number" varchar(20) null, "contract_id" uuid not null, "customer_id" uuid not null, "bill_run_id" uuid null, "period_start" date not null, "period_end" date not null, "state" varchar(16) not null, "net_total" bigint not null, "taxes" jsonb not null, "gross_total" bigint not null, "prepayments_total" bigint not null, "amount_due" bigint not null, "prepayment_ids" jsonb not null, "issued_at" timestamptz(3) null, "due_date" date null, "template_id" uuid not null, "cancels_invoice_id" uuid null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`create index "invoices_account_id_created_at_id_index" on "invoices" ("account_id", "created_at", "id");`);
    this.addSql(`create index "invoices_bill_run_id_state_index" on "invoices" ("bill_run_id", "state");`);
    this.addSql(`create index "invoices_account_id_contract_id_index" on "invoices" ("account_id", "contract_id");`);
    this.addSql(`create index "invoices_account_id_customer_id_index" on "invoices" ("account_id", "customer_id");`);
    this.addSql(`alter table "invoices" add constraint "invoices_account_id_number_unique" unique ("account_id", "number");`);
    // At most one invoice that is not cancelled covers any day of a contract (design.md §7).
    this.addSql(`alter table "invoices" add constraint "invoices_one_per_contract_day" exclude using gist ("contract_id" with =, daterange("period_start", "period_end") with &&) where ("kind" = 'invoice' and "state" <> 'cancelled');`);

    this.addSql(`create table "line_items" ("id" uuid not null, "account_id" uuid not null, "invoice_id" uuid not null, "contract_id" uuid not null, "position" int not null, "description" varchar(200) not null, "kind" varchar(16) not null, "quantity" bigint not null, "quantity_scale" smallint not null, "unit" varchar(8) not null, "unit_price" bigint not null, "net_amount" bigint not null, "tax_rate_id" uuid not null, "tax_rate" bigint not null, "period_start" date not null, "period_end" date not null, "price_component_id" uuid not null, "price_id" uuid not null, "meter_id" uuid null, "created_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`create index "line_items_account_id_created_at_id_index" on "line_items" ("account_id", "created_at", "id");`);
    this.addSql(`create index "line_items_invoice_id_position_index" on "line_items" ("invoice_id", "position");`);
    this.addSql(`create index "line_items_account_id_contract_id_index" on "line_items" ("account_id", "contract_id");`);
    this.addSql(`create index "line_items_price_id_index" on "line_items" ("price_id");`);

    this.addSql(`create table "invoice_pdfs" ("invoice_id" uuid not null, "account_id" uuid not null, "content" bytea not null, "created_at" timestamptz(3) not null, primary key ("invoice_id"));`);

    this.addSql(`create table "bill_run_errors" ("bill_run_id" uuid not null, "contract_id" uuid not null, "account_id" uuid not null, "code" varchar(40) not null, "message" text not null, "created_at" timestamptz(3) not null, primary key ("bill_run_id", "contract_id"));`);

    this.addSql(`alter table "bill_runs" add constraint "bill_runs_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);

    this.addSql(`alter table "invoice_counters" add constraint "invoice_counters_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);

    this.addSql(`alter table "invoices" add constraint "invoices_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);
    this.addSql(`alter table "invoices" add constraint "invoices_contract_id_foreign" foreign key ("contract_id") references "contracts" ("id");`);
    this.addSql(`alter table "invoices" add constraint "invoices_customer_id_foreign" foreign key ("customer_id") references "customers" ("id");`);
    this.addSql(`alter table "invoices" add constraint "invoices_bill_run_id_foreign" foreign key ("bill_run_id") references "bill_runs" ("id") on delete set null;`);

    this.addSql(`alter table "line_items" add constraint "line_items_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);
    this.addSql(`alter table "line_items" add constraint "line_items_invoice_id_foreign" foreign key ("invoice_id") references "invoices" ("id") on delete cascade;`);
    this.addSql(`alter table "line_items" add constraint "line_items_contract_id_foreign" foreign key ("contract_id") references "contracts" ("id");`);

    this.addSql(`alter table "invoice_pdfs" add constraint "invoice_pdfs_invoice_id_foreign" foreign key ("invoice_id") references "invoices" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "invoice_pdfs" add constraint "invoice_pdfs_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);

    this.addSql(`alter table "bill_run_errors" add constraint "bill_run_errors_bill_run_id_foreign" foreign key ("bill_run_id") references "bill_runs" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "bill_run_errors" add constraint "bill_run_errors_contract_id_foreign" foreign key ("contract_id") references "contracts" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "bill_run_errors" add constraint "bill_run_errors_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "invoices" drop constraint "invoices_bill_run_id_foreign";`);
    this.addSql(`alter table "bill_run_errors" drop constraint "bill_run_errors_bill_run_id_foreign";`);
    this.addSql(`alter table "line_items" drop constraint "line_items_invoice_id_foreign";`);
    this.addSql(`alter table "invoice_pdfs" drop constraint "invoice_pdfs_invoice_id_foreign";`);

    this.addSql(`drop table if exists "bill_runs" cascade;`);
    this.addSql(`drop table if exists "invoice_counters" cascade;`);
    this.addSql(`drop table if exists "invoices" cascade;`);
    this.addSql(`drop table if exists "line_items" cascade;`);
    this.addSql(`drop table if exists "invoice_pdfs" cascade;`);
    this.addSql(`drop table if exists "bill_run_errors" cascade;`);
  }

}

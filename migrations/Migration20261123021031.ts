import { Migration } from '@mikro-orm/migrations';

export class Migration20261123021031 extends Migration {

  override name = 'Migration20261123021031';

  override up(): void | Promise<void> {
    this.addSql(`create table "payment_methods" ("id" uuid not null, "account_id" uuid not null, "customer_id" uuid not null, "type" varchar(32) not null, "account_holder" varchar(200) null, "iban" varchar(34) null, "bic" varchar(11) null, "mandate_reference" varchar(35) null, "mandate_signed_at" date null, "is_default" boolean not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`create index "payment_methods_account_id_created_at_id_index" on "payment_methods" ("account_id", "created_at", "id");`);
    this.addSql(`create index "payment_methods_account_id_customer_id_index" on "payment_methods" ("account_id", "customer_id");`);
    this.addSql(`create unique index "payment_methods_one_default_per_customer" on "payment_methods" ("customer_id") where is_default;`);

    this.addSql(`create table "prepayment_requests" ("id" uuid not null, "account_id" uuid not null, "contract_id" uuid not null, "start_date" date not null, "end_date" date not null, "payment_ids" jsonb not null, "created_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`create index "prepayment_requests_account_id_created_at_id_index" on "prepayment_requests" ("account_id", "created_at", "id");`);
    this.addSql(`create index "prepayment_requests_account_id_contract_id_index" on "prepayment_requests" ("account_id", "contract_id");`);

    this.addSql(`create table "prepayment_amounts" ("id" uuid not null, "account_id" uuid not null, "contract_id" uuid not null, "amount" bigint not null, "valid_from" date not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`create index "prepayment_amounts_account_id_created_at_id_index" on "prepayment_amounts" ("account_id", "created_at", "id");`);
    this.addSql(`alter table "prepayment_amounts" add constraint "prepayment_amounts_contract_id_valid_from_unique" unique ("contract_id", "valid_from");`);

    this.addSql(`create table "payments" ("id" uuid not null, "account_id" uuid not null, "contract_id" uuid not null, "amount" bigint not null, "type" varchar(16) not null, "state" varchar(16) not null, "due_date" date not null, "received_at" timestamptz(3) null, "payment_method_id" uuid null, "reference" varchar(200) null, "invoice_id" uuid null, "locked_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`create index "payments_account_id_created_at_id_index" on "payments" ("account_id", "created_at", "id");`);
    this.addSql(`create index "payments_account_id_contract_id_due_date_index" on "payments" ("account_id", "contract_id", "due_date");`);
    this.addSql(`create unique index "payments_one_prepayment_per_due_date" on "payments" ("contract_id", "due_date") where type = 'prepayment';`);

    this.addSql(`alter table "payment_methods" add constraint "payment_methods_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);
    this.addSql(`alter table "payment_methods" add constraint "payment_methods_customer_id_foreign" foreign key ("customer_id") references "customers" ("id");`);

    this.addSql(`alter table "prepayment_requests" add constraint "prepayment_requests_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);
    this.addSql(`alter table "prepayment_requests" add constraint "prepayment_requests_contract_id_foreign" foreign key ("contract_id") references "contracts" ("id");`);

    this.addSql(`alter table "prepayment_amounts" add constraint "prepayment_amounts_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);
    this.addSql(`alter table "prepayment_amounts" add constraint "prepayment_amounts_contract_id_foreign" foreign key ("contract_id") references "contracts" ("id");`);

    this.addSql(`alter table "payments" add constraint "payments_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);
    this.addSql(`alter table "payments" add constraint "payments_contract_id_foreign" foreign key ("contract_id") references "contracts" ("id");`);
    this.addSql(`alter table "payments" add constraint "payments_payment_method_id_foreign" foreign key ("payment_method_id") references "payment_methods" ("id") on delete set null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "payments" drop constraint "payments_payment_method_id_foreign";`);

    this.addSql(`drop table if exists "payment_methods" cascade;`);
    this.addSql(`drop table if exists "prepayment_requests" cascade;`);
    this.addSql(`drop table if exists "prepayment_amounts" cascade;`);
    this.addSql(`drop table if exists "payments" cascade;`);
  }

}

import { Migration } from '@mikro-orm/migrations';

export class Migration20261123002002_measurements extends Migration {

  override name = 'Migration20261123002002_measurements';

  override up(): void | Promise<void> {
    this.addSql(`create table "measurement_days" ("account_id" uuid not null, "meter_id" uuid not null, "day" date not null, "values" bigint[] not null, primary key ("account_id", "meter_id", "day"));`);

    this.addSql(`create table "meter_readings" ("account_id" uuid not null, "meter_id" uuid not null, "at" timestamptz(3) not null, "wh" bigint not null, primary key ("account_id", "meter_id", "at"));`);

    this.addSql(`alter table "measurement_days" add constraint "measurement_days_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);
    this.addSql(`alter table "measurement_days" add constraint "measurement_days_meter_id_foreign" foreign key ("meter_id") references "meters" ("id");`);

    this.addSql(`alter table "meter_readings" add constraint "meter_readings_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);
    this.addSql(`alter table "meter_readings" add constraint "meter_readings_meter_id_foreign" foreign key ("meter_id") references "meters" ("id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "measurement_days" cascade;`);
    this.addSql(`drop table if exists "meter_readings" cascade;`);
  }

}

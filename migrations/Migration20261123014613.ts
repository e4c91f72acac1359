import { Migration } from '@mikro-orm/migrations';

export class Migration20261123014613 extends Migration {

  override name = 'Migration20261123014613';

  override up(): void | Promise<void> {
    this.addSql(`create table "templates" ("id" uuid not null, "account_id" uuid not null, "name" varchar(200) not null, "kind" varchar(16) not null, "locale" varchar(8) not null, "subject" varchar(200) null, "intro_text" text null, "closing_text" text null, "footer_text" text null, "is_default" boolean not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, primary key ("id"));`);
    this.addSql(`create index "templates_account_id_created_at_id_index" on "templates" ("account_id", "created_at", "id");`);

    this.addSql(`alter table "templates" add constraint "templates_account_id_foreign" foreign key ("account_id") references "accounts" ("account_id");`);

    // Accounts created before templates existed get the same defaults as new ones (core/domain/billing/template.ts).
    this.addSql(`insert into "templates" ("id", "account_id", "name", "kind", "locale", "subject", "intro_text", "closing_text", "footer_text", "is_default", "created_at", "updated_at")
      select gen_random_uuid(), a."account_id", d.name, d.kind, 'de-DE', d.subject, d.intro, d.closing, null, true, now(), now()
      from "accounts" a cross join (values
        ('Rechnung', 'invoice', 'Ihre Stromrechnung', 'vielen Dank für Ihr Vertrauen. Anbei erhalten Sie Ihre Rechnung.', 'Bitte überweisen Sie den offenen Betrag bis zum Fälligkeitsdatum.'),
        ('Gutschrift', 'credit_note', 'Ihre Gutschrift', 'anbei erhalten Sie eine Gutschrift zu Ihrer Rechnung.', null)
      ) as d(name, kind, subject, intro, closing);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "templates" cascade;`);
  }

}

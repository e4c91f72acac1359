import { Migration } from '@mikro-orm/migrations';

export class Migration20261123052739 extends Migration {

  override name = 'Migration20261123052739';

  override up(): void | Promise<void> {
    this.addSql(`alter table "balancing_days" add "head_balanced" smallint not null default 0, add "tail_balanced" smallint not null default 0;`);

    this.addSql(`alter table "balance_days" add "head_wh" bigint null, add "tail_wh" bigint null;`);

    // Rows balanced before: their totals on each side of local midnight (the account's timezone).
    const split = `(extract(epoch from (((((d.day::timestamp at time zone 'UTC') at time zone a.timezone)::date + 1)::timestamp at time zone a.timezone) - (d.day::timestamp at time zone 'UTC'))) / 900)::int`;
    this.addSql(`update balance_days d set head_wh = (select sum(v) from unnest(d."values"[1:s.split]) v), tail_wh = (select sum(v) from unnest(d."values"[s.split + 1:96]) v)
      from (select d.account_id, d.site_id, d.day, least(96, ${split}) as split from balance_days d join accounts a on a.account_id = d.account_id group by 1, 2, 3, 4) s
      where s.account_id = d.account_id and s.site_id = d.site_id and s.day = d.day;`);
    this.addSql(`update balancing_days d set head_balanced = (select count(*) from unnest(d.states[1:s.split]) x where x = 1), tail_balanced = (select count(*) from unnest(d.states[s.split + 1:96]) x where x = 1)
      from (select d.account_id, d.site_id, d.day, least(96, ${split}) as split from balancing_days d join accounts a on a.account_id = d.account_id) s
      where s.account_id = d.account_id and s.site_id = d.site_id and s.day = d.day;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "balance_days" drop column "head_wh", drop column "tail_wh";`);

    this.addSql(`alter table "balancing_days" drop column "head_balanced", drop column "tail_balanced";`);
  }

}

import { Migration } from '@mikro-orm/migrations';

/**
 * Master data an electricity invoice prints (§40 EnWG), all additive: a meter's MaLo-ID and
 * Zählpunktbezeichnung, a contract's minimum term, notice and renewal periods, a product's fuel mix
 * (§42 EnWG) and a price component's category (existing components are `energy`).
 */
export class Migration20261123130100 extends Migration {

  override name = 'Migration20261123130100';

  override up(): void | Promise<void> {
    this.addSql(`alter table "meters" add "market_location_id" varchar(11) null, add "metering_point_id" varchar(33) null;`);

    this.addSql(`alter table "contracts" add "minimum_term_end_date" date null, add "notice_period" varchar(16) null, add "renewal_period" varchar(16) null;`);

    this.addSql(`alter table "electricity_products" add "fuel_mix" jsonb null;`);

    this.addSql(`alter table "price_components" add "category" varchar(16) not null default 'energy';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "price_components" drop column "category";`);

    this.addSql(`alter table "electricity_products" drop column "fuel_mix";`);

    this.addSql(`alter table "contracts" drop column "minimum_term_end_date", drop column "notice_period", drop column "renewal_period";`);

    this.addSql(`alter table "meters" drop column "market_location_id", drop column "metering_point_id";`);
  }

}

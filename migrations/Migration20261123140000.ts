import { Migration } from '@mikro-orm/migrations';

/**
 * The default templates' wording, in accounts that still have it unchanged: a credit note that
 * cancels an invoice is a "Stornorechnung" ("Gutschrift" means self-billing in German VAT practice),
 * and the invoice's closing text no longer asks for a transfer, which contradicted a SEPA mandate.
 * Templates an operator edited keep their text.
 */
export class Migration20261123140000 extends Migration {
  override name = 'Migration20261123140000';

  override up(): void | Promise<void> {
    this.addSql(`update "templates" set "name" = 'Stornorechnung', "subject" = 'Ihre Stornorechnung', "intro_text" = 'anbei erhalten Sie die Stornorechnung zu Ihrer Rechnung.'
      where "kind" = 'credit_note' and "name" = 'Gutschrift' and "subject" = 'Ihre Gutschrift' and "intro_text" = 'anbei erhalten Sie eine Gutschrift zu Ihrer Rechnung.';`);
    this.addSql(`update "templates" set "closing_text" = 'Bei Fragen zu dieser Rechnung erreichen Sie uns unter den unten genannten Kontaktdaten.'
      where "kind" = 'invoice' and "closing_text" = 'Bitte überweisen Sie den offenen Betrag bis zum Fälligkeitsdatum.';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`update "templates" set "name" = 'Gutschrift', "subject" = 'Ihre Gutschrift', "intro_text" = 'anbei erhalten Sie eine Gutschrift zu Ihrer Rechnung.'
      where "kind" = 'credit_note' and "name" = 'Stornorechnung' and "subject" = 'Ihre Stornorechnung' and "intro_text" = 'anbei erhalten Sie die Stornorechnung zu Ihrer Rechnung.';`);
    this.addSql(`update "templates" set "closing_text" = 'Bitte überweisen Sie den offenen Betrag bis zum Fälligkeitsdatum.'
      where "kind" = 'invoice' and "closing_text" = 'Bei Fragen zu dieser Rechnung erreichen Sie uns unter den unten genannten Kontaktdaten.';`);
  }
}

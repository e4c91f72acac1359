export const TEMPLATE_KINDS = ['invoice', 'credit_note'] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];
export const TEMPLATE_LOCALES = ['de-DE', 'en-GB'] as const;
export type TemplateLocale = (typeof TEMPLATE_LOCALES)[number];

export class Template {
  id!: string;
  accountId!: string;
  name!: string;
  kind!: TemplateKind;
  locale!: TemplateLocale;
  subject!: string | null;
  introText!: string | null;
  closingText!: string | null;
  footerText!: string | null;
  /** Exactly one default per kind and account. */
  isDefault!: boolean;
  createdAt!: Date;
  updatedAt!: Date;
}

/**
 * What every account starts with: one default template per kind. A credit note that cancels an
 * invoice is a "Stornorechnung": German VAT practice reserves "Gutschrift" for self-billing. The
 * closing text leaves payment to the payment box, which follows the customer's payment method.
 */
export const DEFAULT_TEMPLATES: ReadonlyArray<Pick<Template, 'name' | 'kind' | 'locale' | 'subject' | 'introText' | 'closingText' | 'footerText'>> = [
  {
    name: 'Rechnung',
    kind: 'invoice',
    locale: 'de-DE',
    subject: 'Ihre Stromrechnung',
    introText: 'vielen Dank für Ihr Vertrauen. Anbei erhalten Sie Ihre Rechnung.',
    closingText: 'Bei Fragen zu dieser Rechnung erreichen Sie uns unter den unten genannten Kontaktdaten.',
    footerText: null,
  },
  {
    name: 'Stornorechnung',
    kind: 'credit_note',
    locale: 'de-DE',
    subject: 'Ihre Stornorechnung',
    introText: 'anbei erhalten Sie die Stornorechnung zu Ihrer Rechnung.',
    closingText: null,
    footerText: null,
  },
];

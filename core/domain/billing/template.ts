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

/** What every account starts with: one default template per kind. */
export const DEFAULT_TEMPLATES: ReadonlyArray<Pick<Template, 'name' | 'kind' | 'locale' | 'subject' | 'introText' | 'closingText' | 'footerText'>> = [
  {
    name: 'Rechnung',
    kind: 'invoice',
    locale: 'de-DE',
    subject: 'Ihre Stromrechnung',
    introText: 'vielen Dank für Ihr Vertrauen. Anbei erhalten Sie Ihre Rechnung.',
    closingText: 'Bitte überweisen Sie den offenen Betrag bis zum Fälligkeitsdatum.',
    footerText: null,
  },
  {
    name: 'Gutschrift',
    kind: 'credit_note',
    locale: 'de-DE',
    subject: 'Ihre Gutschrift',
    introText: 'anbei erhalten Sie eine Gutschrift zu Ihrer Rechnung.',
    closingText: null,
    footerText: null,
  },
];

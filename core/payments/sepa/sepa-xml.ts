import type { Address } from '../../domain/addresses/address.js';
import { formatCents } from '../../domain/billing/money.js';
import { ID_MAX, NAME_MAX, NOT_PROVIDED, REMITTANCE_MAX, sepaIdentifier, sepaText, sepaTextOrNull } from '../../domain/payments/sepa-text.js';
import { isCalendarDate } from '../../domain/time/calendar-date.js';
import type { SepaParty } from './sepa-document.js';

/*
 * Pieces shared by the pain.008 and pain.001 writers. The writers build the file as an array of
 * strings joined once. Nothing is XML-escaped: every text passes sepaText or sepaIdentifier (whose
 * character set holds no `&`, `<` or `>`), and IBANs, BICs, country codes and dates are checked
 * against their schema patterns, so a value that would need escaping is refused instead.
 */

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** The largest amount of one SEPA transaction: 999,999,999.99 EUR (EPC implementation guidelines). */
const MAX_AMOUNT_CENTS = 99_999_999_999n;

const IBAN = /^[A-Z]{2}[0-9]{2}[a-zA-Z0-9]{1,30}$/;
const BIC = /^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;
const COUNTRY = /^[A-Z]{2}$/;

/** XSD maximum lengths of the structured postal address fields (PostalAddress24). */
const STREET_MAX = 70;
const POST_CODE_MAX = 16;
const TOWN_MAX = 35;

export function requireTransactions(transactions: readonly unknown[], kind: string): void {
  if (transactions.length === 0) throw new Error(`a SEPA ${kind} file needs at least one transaction`);
}

/** A transaction amount as a decimal string, e.g. `123.45`; refuses what a bank must not be sent. */
export function transactionAmount(cents: bigint, endToEndId: string): string {
  if (cents <= 0n) throw new Error(`SEPA transaction ${endToEndId}: the amount must be positive, got ${formatCents(cents)} EUR`);
  if (cents > MAX_AMOUNT_CENTS) throw new Error(`SEPA transaction ${endToEndId}: ${formatCents(cents)} EUR exceeds the maximum of ${formatCents(MAX_AMOUNT_CENTS)} EUR`);
  return formatCents(cents);
}

export const controlSum = (amounts: readonly bigint[]): string => formatCents(amounts.reduce((sum, amount) => sum + amount, 0n));

export function isoDate(date: string, field: string): string {
  if (!isCalendarDate(date)) throw new Error(`SEPA ${field} is not a calendar date (YYYY-MM-DD): ${date}`);
  return date;
}

/** ISO 8601 in UTC without milliseconds, e.g. `2026-03-02T09:15:00Z`. */
function creationDateTime(createdAt: Date): string {
  if (Number.isNaN(createdAt.getTime())) throw new Error('SEPA creation time is not a valid date');
  return `${createdAt.toISOString().slice(0, 19)}Z`;
}

/** The identifier of a payment information block: the message id's start and a suffix, within 35 characters. */
export function paymentInfoId(messageId: string, suffix: string): string {
  return sepaIdentifier(`${messageId.slice(0, ID_MAX - suffix.length - 1)}-${suffix}`);
}

function iban(value: string): string {
  if (!IBAN.test(value)) throw new Error(`not an IBAN in electronic form: ${value}`);
  return value;
}

export interface GroupHeader {
  messageId: string;
  createdAt: Date;
  amounts: readonly bigint[];
  initiatorName: string;
}

export function writeGroupHeader(out: string[], header: GroupHeader): void {
  out.push(
    `<GrpHdr><MsgId>${sepaIdentifier(header.messageId)}</MsgId><CreDtTm>${creationDateTime(header.createdAt)}</CreDtTm>`,
    `<NbOfTxs>${header.amounts.length}</NbOfTxs><CtrlSum>${controlSum(header.amounts)}</CtrlSum>`,
    `<InitgPty><Nm>${sepaText(header.initiatorName, NAME_MAX)}</Nm></InitgPty></GrpHdr>`,
  );
}

/** A structured postal address: street (the first address line), post code, town and country. */
function writeAddress(out: string[], address: Address): void {
  if (!COUNTRY.test(address.country)) throw new Error(`not an ISO 3166-1 alpha-2 country code: ${address.country}`);
  const street = address.line1 === null ? null : sepaTextOrNull(address.line1, STREET_MAX);
  const postCode = sepaTextOrNull(address.postCode, POST_CODE_MAX);
  out.push('<PstlAdr>');
  if (street !== null) out.push(`<StrtNm>${street}</StrtNm>`);
  if (postCode !== null) out.push(`<PstCd>${postCode}</PstCd>`);
  out.push(`<TwnNm>${sepaText(address.locality, TOWN_MAX)}</TwnNm><Ctry>${address.country}</Ctry></PstlAdr>`);
}

/** `<Cdtr>`, `<Dbtr>`: the party's name and, when known, its postal address. */
export function writeParty(out: string[], tag: string, party: SepaParty): void {
  out.push(`<${tag}><Nm>${sepaText(party.name, NAME_MAX)}</Nm>`);
  if (party.address !== null) writeAddress(out, party.address);
  out.push(`</${tag}>`);
}

/** `<CdtrAcct>`, `<DbtrAcct>`: an account identified by its IBAN. */
export function writeAccount(out: string[], tag: string, party: SepaParty): void {
  out.push(`<${tag}><Id><IBAN>${iban(party.iban)}</IBAN></Id></${tag}>`);
}

/** `<CdtrAgt>`, `<DbtrAgt>`: the party's bank by BIC, or `NOTPROVIDED` when the BIC is unknown (IBAN-only, allowed within the EEA). */
export function writeAgent(out: string[], tag: string, party: SepaParty): void {
  out.push(`<${tag}><FinInstnId>${agentId(party.bic)}</FinInstnId></${tag}>`);
}

function agentId(bic: string | null): string {
  if (bic === null) return `<Othr><Id>${NOT_PROVIDED}</Id></Othr>`;
  if (!BIC.test(bic)) throw new Error(`not a BIC: ${bic}`);
  return `<BICFI>${bic}</BICFI>`;
}

/** `<RmtInf>` with the unstructured remittance text; nothing when the text has no content. */
export function writeRemittance(out: string[], remittance: string): void {
  const text = sepaTextOrNull(remittance, REMITTANCE_MAX);
  if (text !== null) out.push(`<RmtInf><Ustrd>${text}</Ustrd></RmtInf>`);
}

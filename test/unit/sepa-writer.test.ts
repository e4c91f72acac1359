import { describe, expect, it } from 'vitest';
import type { Address } from '../../core/domain/addresses/address.js';
import { writePain001 } from '../../core/payments/sepa/pain001.js';
import { writePain008 } from '../../core/payments/sepa/pain008.js';
import type { SepaCreditTransferDocument, SepaDirectDebit, SepaDirectDebitDocument, SepaParty } from '../../core/payments/sepa/sepa-document.js';

/* Shape of the SEPA files without xmllint; schema conformance is test/sepa/sepa-conformance.test.ts. */

const address: Address = { line1: 'Hauptstraße 1', line2: 'Hinterhaus', line3: null, line4: null, locality: 'München', postCode: '80331', country: 'DE' };
const party = (name: string, overrides: Partial<SepaParty> = {}): SepaParty => ({ name, iban: 'DE89370400440532013000', bic: null, address: null, ...overrides });

const debit = (endToEndId: string, amount: bigint, sequenceType: 'FRST' | 'RCUR'): SepaDirectDebit => ({
  endToEndId,
  amount,
  mandateId: `M-${endToEndId}`,
  mandateSignedAt: '2024-01-15',
  sequenceType,
  debtor: party(`Kunde ${endToEndId}`),
  remittance: `Abschlag ${endToEndId}`,
});

const directDebits = (transactions: SepaDirectDebit[]): SepaDirectDebitDocument => ({
  messageId: 'RUN-1',
  createdAt: new Date('2026-03-02T09:15:42.789Z'),
  collectionDate: '2026-03-04',
  creditor: party('Stadtwerke Süd & Co. KG', { bic: 'COBADEFFXXX', address }),
  creditorId: 'DE98ZZZ09999999999',
  transactions,
});

const transfers = (amounts: bigint[]): SepaCreditTransferDocument => ({
  messageId: 'PAYOUT-1',
  createdAt: new Date('2026-03-02T09:15:42.789Z'),
  executionDate: '2026-03-03',
  debtor: party('Stadtwerke', { address }),
  transactions: amounts.map((amount, i) => ({ endToEndId: `T${i}`, amount, creditor: party(`Empfänger ${i}`, i === 0 ? { bic: 'DEUTDEFF' } : {}), remittance: `Erstattung ${i}` })),
});

const all = (xml: string, pattern: RegExp) => [...xml.matchAll(pattern)].map((m) => m[1]);
const blocks = (xml: string) => all(xml, /<PmtInf>(.*?)<\/PmtInf>/g) as string[];

describe('pain.008 writer', () => {
  const xml = writePain008(directDebits([debit('a', 1000n, 'RCUR'), debit('b', 1n, 'FRST'), debit('c', 2550n, 'RCUR')]));

  it('writes one batch per sequence type, FRST before RCUR, transactions in their given order', () => {
    expect(all(xml, /<SeqTp>(\w+)<\/SeqTp>/g)).toEqual(['FRST', 'RCUR']);
    expect(blocks(xml).map((block) => all(block, /<EndToEndId>(.*?)<\/EndToEndId>/g))).toEqual([['b'], ['a', 'c']]);
    expect(all(xml, /<PmtInfId>(.*?)<\/PmtInfId>/g)).toEqual(['RUN-1-FRST', 'RUN-1-RCUR']);
  });

  it('counts and sums the group and every batch', () => {
    expect(/<GrpHdr>.*<NbOfTxs>3<\/NbOfTxs><CtrlSum>35\.51<\/CtrlSum>.*<\/GrpHdr>/.test(xml)).toBe(true);
    expect(blocks(xml).map((block) => [all(block, /<NbOfTxs>(.*?)<\/NbOfTxs>/g), all(block, /<CtrlSum>(.*?)<\/CtrlSum>/g)])).toEqual([
      [['1'], ['0.01']],
      [['2'], ['35.50']],
    ]);
  });

  it('writes only an RCUR batch when no mandate is new', () => {
    expect(all(writePain008(directDebits([debit('a', 5n, 'RCUR')])), /<SeqTp>(\w+)<\/SeqTp>/g)).toEqual(['RCUR']);
  });

  it('writes the header, names, addresses and agents the banks expect', () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.008.001.08"><CstmrDrctDbtInitn><GrpHdr><MsgId>RUN-1</MsgId>')).toBe(true);
    expect(xml).toContain('<CreDtTm>2026-03-02T09:15:42Z</CreDtTm>');
    expect(xml).toContain('<InitgPty><Nm>Stadtwerke Sued + Co. KG</Nm></InitgPty>');
    expect(xml).toContain(
      '<Cdtr><Nm>Stadtwerke Sued + Co. KG</Nm><PstlAdr><StrtNm>Hauptstrasse 1</StrtNm><PstCd>80331</PstCd><TwnNm>Muenchen</TwnNm><Ctry>DE</Ctry></PstlAdr></Cdtr>' +
        '<CdtrAcct><Id><IBAN>DE89370400440532013000</IBAN></Id></CdtrAcct><CdtrAgt><FinInstnId><BICFI>COBADEFFXXX</BICFI></FinInstnId></CdtrAgt><ChrgBr>SLEV</ChrgBr>' +
        '<CdtrSchmeId><Id><PrvtId><Othr><Id>DE98ZZZ09999999999</Id><SchmeNm><Prtry>SEPA</Prtry></SchmeNm></Othr></PrvtId></Id></CdtrSchmeId>',
    );
    expect(xml).toContain(
      '<DrctDbtTxInf><PmtId><EndToEndId>b</EndToEndId></PmtId><InstdAmt Ccy="EUR">0.01</InstdAmt>' +
        '<DrctDbtTx><MndtRltdInf><MndtId>M-b</MndtId><DtOfSgntr>2024-01-15</DtOfSgntr></MndtRltdInf></DrctDbtTx>' +
        '<DbtrAgt><FinInstnId><Othr><Id>NOTPROVIDED</Id></Othr></FinInstnId></DbtrAgt><Dbtr><Nm>Kunde b</Nm></Dbtr>' +
        '<DbtrAcct><Id><IBAN>DE89370400440532013000</IBAN></Id></DbtrAcct><RmtInf><Ustrd>Abschlag b</Ustrd></RmtInf></DrctDbtTxInf>',
    );
  });

  it('leaves out what an address or a remittance does not have', () => {
    const sparse = { ...debit('a', 5n, 'FRST'), remittance: '😀', debtor: party('X', { address: { ...address, line1: null, postCode: ' ' } }) };
    const out = writePain008(directDebits([sparse]));
    expect(out).toContain('<Dbtr><Nm>X</Nm><PstlAdr><TwnNm>Muenchen</TwnNm><Ctry>DE</Ctry></PstlAdr></Dbtr>');
    expect(out).not.toContain('<RmtInf>');
  });

  it('keeps batch ids within 35 characters', () => {
    const out = writePain008({ ...directDebits([debit('a', 5n, 'FRST')]), messageId: 'X'.repeat(35) });
    expect(all(out, /<PmtInfId>(.*?)<\/PmtInfId>/g)).toEqual([`${'X'.repeat(30)}-FRST`]);
  });

  it('is deterministic', () => {
    const doc = directDebits([debit('a', 1000n, 'RCUR'), debit('b', 1n, 'FRST')]);
    expect(writePain008(structuredClone(doc))).toBe(writePain008(doc));
  });

  it.each<[string, Partial<SepaDirectDebitDocument>, RegExp]>([
    ['no transactions', { transactions: [] }, /at least one transaction/],
    ['a zero amount', { transactions: [debit('a', 0n, 'FRST')] }, /a: the amount must be positive, got 0\.00 EUR/],
    ['a negative amount', { transactions: [debit('a', -5n, 'FRST')] }, /must be positive/],
    ['more than 999,999,999.99 EUR', { transactions: [debit('a', 100_000_000_000n, 'RCUR')] }, /exceeds the maximum of 999999999\.99 EUR/],
    ['an unknown sequence type', { transactions: [{ ...debit('a', 5n, 'FRST'), sequenceType: 'OOFF' as 'FRST' }] }, /unknown sequence type OOFF/],
    ['a message id of 36 characters', { messageId: 'X'.repeat(36) }, /invalid SEPA identifier/],
    ['an end-to-end id with //', { transactions: [debit('a//b', 5n, 'FRST')] }, /not starting or ending with "\/", without "\/\/"/],
    ['an IBAN in paper form', { creditor: party('S', { iban: 'DE89 3704 0044 0532 0130 00' }) }, /not an IBAN/],
    ['an invalid BIC', { creditor: party('S', { bic: 'COBA<DE>' }) }, /not a BIC/],
    ['a lower-case country', { creditor: party('S', { address: { ...address, country: 'de' } }) }, /country code/],
    ['a collection date that is no date', { collectionDate: '2026-02-30' }, /collection date is not a calendar date/],
    ['an invalid creation time', { createdAt: new Date(Number.NaN) }, /creation time/],
  ])('refuses %s', (_, change, message) => {
    expect(() => writePain008({ ...directDebits([debit('a', 5n, 'FRST')]), ...change })).toThrow(message);
  });

  it('accepts 999,999,999.99 EUR', () => {
    expect(writePain008(directDebits([debit('a', 99_999_999_999n, 'RCUR')]))).toContain('<InstdAmt Ccy="EUR">999999999.99</InstdAmt>');
  });
});

describe('pain.001 writer', () => {
  const xml = writePain001(transfers([1999n, 1n]));

  it('writes one batch of every transfer with the group count and sum', () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09"><CstmrCdtTrfInitn>')).toBe(true);
    expect(all(xml, /<NbOfTxs>(.*?)<\/NbOfTxs>/g)).toEqual(['2', '2']);
    expect(all(xml, /<CtrlSum>(.*?)<\/CtrlSum>/g)).toEqual(['20.00', '20.00']);
    expect(xml).toContain(
      '<PmtInf><PmtInfId>PAYOUT-1-TRF</PmtInfId><PmtMtd>TRF</PmtMtd><BtchBookg>true</BtchBookg><NbOfTxs>2</NbOfTxs><CtrlSum>20.00</CtrlSum>' +
        '<PmtTpInf><SvcLvl><Cd>SEPA</Cd></SvcLvl></PmtTpInf><ReqdExctnDt><Dt>2026-03-03</Dt></ReqdExctnDt>' +
        '<Dbtr><Nm>Stadtwerke</Nm><PstlAdr><StrtNm>Hauptstrasse 1</StrtNm><PstCd>80331</PstCd><TwnNm>Muenchen</TwnNm><Ctry>DE</Ctry></PstlAdr></Dbtr>' +
        '<DbtrAcct><Id><IBAN>DE89370400440532013000</IBAN></Id></DbtrAcct><DbtrAgt><FinInstnId><Othr><Id>NOTPROVIDED</Id></Othr></FinInstnId></DbtrAgt><ChrgBr>SLEV</ChrgBr>',
    );
  });

  it("names the creditor's bank only when its BIC is known", () => {
    expect(xml).toContain(
      '<CdtTrfTxInf><PmtId><EndToEndId>T0</EndToEndId></PmtId><Amt><InstdAmt Ccy="EUR">19.99</InstdAmt></Amt><CdtrAgt><FinInstnId><BICFI>DEUTDEFF</BICFI></FinInstnId></CdtrAgt>' +
        '<Cdtr><Nm>Empfaenger 0</Nm></Cdtr><CdtrAcct><Id><IBAN>DE89370400440532013000</IBAN></Id></CdtrAcct><RmtInf><Ustrd>Erstattung 0</Ustrd></RmtInf></CdtTrfTxInf>',
    );
    expect(xml).toContain('<CdtTrfTxInf><PmtId><EndToEndId>T1</EndToEndId></PmtId><Amt><InstdAmt Ccy="EUR">0.01</InstdAmt></Amt><Cdtr>');
  });

  it('is deterministic', () => {
    expect(writePain001(transfers([1999n, 1n]))).toBe(xml);
  });

  it.each<[string, bigint[], RegExp]>([
    ['no transactions', [], /at least one transaction/],
    ['a zero amount', [100n, 0n], /T1: the amount must be positive/],
    ['more than 999,999,999.99 EUR', [100_000_000_000n], /exceeds the maximum/],
  ])('refuses %s', (_, amounts, message) => {
    expect(() => writePain001(transfers(amounts))).toThrow(message);
  });
});

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Address } from '../../core/domain/addresses/address.js';
import { formatCents, parseCents } from '../../core/domain/billing/money.js';
import { compactId } from '../../core/domain/payments/sepa-text.js';
import { writePain001 } from '../../core/payments/sepa/pain001.js';
import { writePain008 } from '../../core/payments/sepa/pain008.js';
import type { SepaCreditTransferDocument, SepaDirectDebitDocument, SepaParty } from '../../core/payments/sepa/sepa-document.js';
import { sepaFile, sepaSchemaErrors } from '../support/sepa.js';

/*
 * Schema conformance of the SEPA writers, decided by the ISO 20022 XSDs (copied into xsd/) with
 * xmllint (test/support/sepa.ts), over generated documents. The rules the XSD does not hold are checked by reading the
 * files back: the SEPA character set in every text node, and the counts and control sums.
 */

const execFileAsync = promisify(execFile);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const VALIDATE_SEPA = resolve(root, '../shared/validators/validate-sepa.sh');
const RUNS = 25;

// --- generated documents ---

const text = fc.oneof(
  fc.constantFrom(
    'Erika Mustermann',
    'Müller & Söhne GmbH',
    'Jürgen Groß-Überlänge "Ä" Ölmühlenbetriebsgesellschaft mbH & Co. KG Abteilung Energiebeschaffung und Liegenschaften',
    "O'Brien (Ltd.)",
    'Łukasz Żółć',
    'Café 😀🎉',
    '😀',
    '',
    '<b>&amp;</b> ]]> "x"',
    'ẞ ﬁ Ｗ',
  ),
  fc.string({ unit: 'grapheme', maxLength: 160 }),
  fc.string({ unit: 'binary', maxLength: 80 }),
);
const address: fc.Arbitrary<Address | null> = fc.option(
  fc.record({
    line1: fc.option(text, { nil: null }),
    line2: fc.option(text, { nil: null }),
    line3: fc.constant(null),
    line4: fc.constant(null),
    locality: text,
    postCode: fc.oneof(fc.constantFrom('80331', '1010', 'SW1A 1AA', ''), text),
    country: fc.constantFrom('DE', 'AT', 'FR', 'NL', 'GB'),
  }),
  { nil: null },
);
const party: fc.Arbitrary<SepaParty> = fc.record({
  name: text,
  iban: fc.constantFrom('DE89370400440532013000', 'AT611904300234573201', 'FR1420041010050500013M02606', 'NL91ABNA0417164300', 'GB29NWBK60161331926819'),
  bic: fc.option(fc.constantFrom('COBADEFFXXX', 'DEUTDEFF', 'BKAUATWW', 'ABNANL2A'), { nil: null }),
  address,
});
const amount = fc.oneof(fc.constantFrom(1n, 100_000_000n), fc.bigInt({ min: 1n, max: 100_000_000n }));
const day = fc.date({ min: new Date('2015-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
const createdAt = fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true });
const messageId = fc.oneof(fc.uuid().map(compactId), fc.constantFrom('X'.repeat(35), 'RUN/2026-03 (A)'));
const mandateId = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9+?:().,' -]{0,34}$/);
const transactionCount = fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 300 }));

const mandate = fc.record({ id: mandateId, signedAt: day, sequenceType: fc.constantFrom<'FRST' | 'RCUR'>('FRST', 'RCUR'), debtor: party });

const directDebitDocument: fc.Arbitrary<SepaDirectDebitDocument> = fc
  .record({ messageId, createdAt, collectionDate: day, creditor: party, mandates: fc.array(mandate, { minLength: 1, maxLength: 12 }), count: transactionCount })
  .chain(({ mandates, count, ...doc }) =>
    fc.array(fc.record({ mandate: fc.constantFrom(...mandates), amount, remittance: text, id: fc.uuid() }), { minLength: count, maxLength: count }).map((txs) => ({
      ...doc,
      creditorId: 'DE98ZZZ09999999999',
      transactions: txs.map((tx) => ({
        endToEndId: compactId(tx.id),
        amount: tx.amount,
        mandateId: tx.mandate.id,
        mandateSignedAt: tx.mandate.signedAt,
        sequenceType: tx.mandate.sequenceType,
        debtor: tx.mandate.debtor,
        remittance: tx.remittance,
      })),
    })),
  );

const creditTransferDocument: fc.Arbitrary<SepaCreditTransferDocument> = fc.record({
  messageId,
  createdAt,
  executionDate: day,
  debtor: party,
  transactions: transactionCount.chain((count) =>
    fc.array(
      fc.record({ endToEndId: fc.uuid().map(compactId), amount, creditor: party, remittance: text }),
      { minLength: count, maxLength: count },
    ),
  ),
});

// --- reading the files back ---

const SEPA_TEXT = /^[A-Za-z0-9/\-?:().,'+ ]*$/;

function all(xml: string, pattern: RegExp): string[] {
  return [...xml.matchAll(pattern)].map((m) => m[1]!);
}

const sum = (amounts: readonly bigint[]) => amounts.reduce((total, a) => total + a, 0n);

/** NbOfTxs and CtrlSum of the group header and of each batch, and the batches' InstdAmt values. */
function counts(xml: string) {
  const header = /<GrpHdr>(.*?)<\/GrpHdr>/.exec(xml)![1]!;
  const figures = (part: string) => ({ count: Number(all(part, /<NbOfTxs>(.*?)<\/NbOfTxs>/g)[0]), sum: parseCents(all(part, /<CtrlSum>(.*?)<\/CtrlSum>/g)[0]!) });
  return {
    header: figures(header),
    batches: all(xml, /<PmtInf>(.*?)<\/PmtInf>/g).map((batch) => ({ ...figures(batch), amounts: all(batch, /<InstdAmt Ccy="EUR">(.*?)<\/InstdAmt>/g).map((a) => parseCents(a)!) })),
  };
}

function expectSepaTextOnly(xml: string): void {
  const body = xml.slice(xml.indexOf('<Document'));
  for (const node of all(body, />([^<]+)</g)) expect(node).toMatch(SEPA_TEXT);
}

function expectFiguresAdd(xml: string, batchAmounts: readonly (readonly bigint[])[]): void {
  const { header, batches } = counts(xml);
  const everything = batchAmounts.flat();
  expect(header).toEqual({ count: everything.length, sum: sum(everything) });
  expect(batches).toEqual(batchAmounts.map((amounts) => ({ count: amounts.length, sum: sum(amounts), amounts })));
  expect(xml).toContain(`<CtrlSum>${formatCents(sum(everything))}</CtrlSum>`);
}

describe('SEPA files conform to the ISO 20022 schemas', () => {
  it('pain.008.001.08 direct debits', async () => {
    await fc.assert(
      fc.asyncProperty(directDebitDocument, async (doc) => {
        const xml = writePain008(doc);
        expect(await sepaSchemaErrors(xml)).toBeNull();
        expectSepaTextOnly(xml);
        const batches = (['FRST', 'RCUR'] as const).map((seq) => doc.transactions.filter((tx) => tx.sequenceType === seq).map((tx) => tx.amount)).filter((a) => a.length > 0);
        expectFiguresAdd(xml, batches);
        expect(all(xml, /<SeqTp>(\w+)<\/SeqTp>/g)).toEqual((['FRST', 'RCUR'] as const).filter((seq) => doc.transactions.some((tx) => tx.sequenceType === seq)));
      }),
      { numRuns: RUNS },
    );
  });

  it('pain.001.001.09 credit transfers', async () => {
    await fc.assert(
      fc.asyncProperty(creditTransferDocument, async (doc) => {
        const xml = writePain001(doc);
        expect(await sepaSchemaErrors(xml)).toBeNull();
        expectSepaTextOnly(xml);
        expectFiguresAdd(xml, [doc.transactions.map((tx) => tx.amount)]);
      }),
      { numRuns: RUNS },
    );
  });

  it.skipIf(!existsSync(VALIDATE_SEPA))('passes the shared validate-sepa.sh (run when the validators folder is beside the repository)', async () => {
    const [debits] = fc.sample(directDebitDocument, { numRuns: 1, seed: 8 });
    const [credits] = fc.sample(creditTransferDocument, { numRuns: 1, seed: 1 });
    for (const xml of [writePain008(debits!), writePain001(credits!)]) {
      await expect(execFileAsync('bash', [VALIDATE_SEPA, sepaFile(xml)])).resolves.toMatchObject({ stderr: expect.stringContaining('validates') });
    }
  });
});

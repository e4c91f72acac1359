import { SEQUENCE_TYPES, type SequenceType } from '../../domain/payments/mandate-sequence.js';
import { sepaIdentifier } from '../../domain/payments/sepa-text.js';
import type { SepaDirectDebit, SepaDirectDebitDocument } from './sepa-document.js';
import {
  controlSum,
  isoDate,
  paymentInfoId,
  requireTransactions,
  transactionAmount,
  writeAccount,
  writeAgent,
  writeGroupHeader,
  writeParty,
  writeRemittance,
  XML_DECLARATION,
} from './sepa-xml.js';

const NAMESPACE = 'urn:iso:std:iso:20022:tech:xsd:pain.008.001.08';


/**
 * A SEPA Core direct debit file (ISO 20022 pain.008.001.08): one payment information block per
 * sequence type present (a mandate's first collections and its recurring ones are separate
 * batches), FRST before RCUR, transactions in their given order. The same document
 * always gives the same bytes.
 */
export function writePain008(doc: SepaDirectDebitDocument): string {
  requireTransactions(doc.transactions, 'direct debit');
  const amounts = doc.transactions.map((tx) => {
    if (!SEQUENCE_TYPES.includes(tx.sequenceType)) throw new Error(`SEPA transaction ${tx.endToEndId}: unknown sequence type ${String(tx.sequenceType)}`);
    return tx.amount;
  });
  const out: string[] = [XML_DECLARATION, `<Document xmlns="${NAMESPACE}"><CstmrDrctDbtInitn>`];
  writeGroupHeader(out, { messageId: doc.messageId, createdAt: doc.createdAt, amounts, initiatorName: doc.creditor.name });
  for (const sequenceType of SEQUENCE_TYPES) {
    const batch = doc.transactions.filter((tx) => tx.sequenceType === sequenceType);
    if (batch.length > 0) writeBatch(out, doc, sequenceType, batch);
  }
  out.push('</CstmrDrctDbtInitn></Document>\n');
  return out.join('');
}

function writeBatch(out: string[], doc: SepaDirectDebitDocument, sequenceType: SequenceType, batch: readonly SepaDirectDebit[]): void {
  out.push(
    `<PmtInf><PmtInfId>${paymentInfoId(doc.messageId, sequenceType)}</PmtInfId><PmtMtd>DD</PmtMtd><BtchBookg>true</BtchBookg>`,
    `<NbOfTxs>${batch.length}</NbOfTxs><CtrlSum>${controlSum(batch.map((tx) => tx.amount))}</CtrlSum>`,
    `<PmtTpInf><SvcLvl><Cd>SEPA</Cd></SvcLvl><LclInstrm><Cd>CORE</Cd></LclInstrm><SeqTp>${sequenceType}</SeqTp></PmtTpInf>`,
    `<ReqdColltnDt>${isoDate(doc.collectionDate, 'collection date')}</ReqdColltnDt>`,
  );
  writeParty(out, 'Cdtr', doc.creditor);
  writeAccount(out, 'CdtrAcct', doc.creditor);
  writeAgent(out, 'CdtrAgt', doc.creditor);
  out.push(
    '<ChrgBr>SLEV</ChrgBr>',
    `<CdtrSchmeId><Id><PrvtId><Othr><Id>${sepaIdentifier(doc.creditorId)}</Id><SchmeNm><Prtry>SEPA</Prtry></SchmeNm></Othr></PrvtId></Id></CdtrSchmeId>`,
  );
  for (const tx of batch) writeTransaction(out, tx);
  out.push('</PmtInf>');
}

function writeTransaction(out: string[], tx: SepaDirectDebit): void {
  out.push(
    `<DrctDbtTxInf><PmtId><EndToEndId>${sepaIdentifier(tx.endToEndId)}</EndToEndId></PmtId>`,
    `<InstdAmt Ccy="EUR">${transactionAmount(tx.amount, tx.endToEndId)}</InstdAmt>`,
    `<DrctDbtTx><MndtRltdInf><MndtId>${sepaIdentifier(tx.mandateId)}</MndtId><DtOfSgntr>${isoDate(tx.mandateSignedAt, 'mandate signature date')}</DtOfSgntr></MndtRltdInf></DrctDbtTx>`,
  );
  writeAgent(out, 'DbtrAgt', tx.debtor);
  writeParty(out, 'Dbtr', tx.debtor);
  writeAccount(out, 'DbtrAcct', tx.debtor);
  writeRemittance(out, tx.remittance);
  out.push('</DrctDbtTxInf>');
}

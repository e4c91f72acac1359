import { sepaIdentifier } from '../../domain/payments/sepa-text.js';
import type { SepaCreditTransfer, SepaCreditTransferDocument } from './sepa-document.js';
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

const NAMESPACE = 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.09';

/**
 * A SEPA credit transfer file (ISO 20022 pain.001.001.09): one payment information block holding
 * every transfer in its given order. The same document always gives the same bytes.
 */
export function writePain001(doc: SepaCreditTransferDocument): string {
  requireTransactions(doc.transactions, 'credit transfer');
  const amounts = doc.transactions.map((tx) => tx.amount);
  const out: string[] = [XML_DECLARATION, `<Document xmlns="${NAMESPACE}"><CstmrCdtTrfInitn>`];
  writeGroupHeader(out, { messageId: doc.messageId, createdAt: doc.createdAt, amounts, initiatorName: doc.debtor.name });
  out.push(
    `<PmtInf><PmtInfId>${paymentInfoId(doc.messageId, 'TRF')}</PmtInfId><PmtMtd>TRF</PmtMtd><BtchBookg>true</BtchBookg>`,
    // The batch holds every transaction, so its count and sum are the group header's.
    `<NbOfTxs>${amounts.length}</NbOfTxs><CtrlSum>${controlSum(amounts)}</CtrlSum>`,
    '<PmtTpInf><SvcLvl><Cd>SEPA</Cd></SvcLvl></PmtTpInf>',
    `<ReqdExctnDt><Dt>${isoDate(doc.executionDate, 'execution date')}</Dt></ReqdExctnDt>`,
  );
  writeParty(out, 'Dbtr', doc.debtor);
  writeAccount(out, 'DbtrAcct', doc.debtor);
  writeAgent(out, 'DbtrAgt', doc.debtor);
  out.push('<ChrgBr>SLEV</ChrgBr>');
  for (const tx of doc.transactions) writeTransaction(out, tx);
  out.push('</PmtInf></CstmrCdtTrfInitn></Document>\n');
  return out.join('');
}

function writeTransaction(out: string[], tx: SepaCreditTransfer): void {
  out.push(
    `<CdtTrfTxInf><PmtId><EndToEndId>${sepaIdentifier(tx.endToEndId)}</EndToEndId></PmtId>`,
    `<Amt><InstdAmt Ccy="EUR">${transactionAmount(tx.amount, tx.endToEndId)}</InstdAmt></Amt>`,
  );
  // The creditor's bank is optional in SEPA credit transfers: without a BIC the IBAN routes the payment.
  if (tx.creditor.bic !== null) writeAgent(out, 'CdtrAgt', tx.creditor);
  writeParty(out, 'Cdtr', tx.creditor);
  writeAccount(out, 'CdtrAcct', tx.creditor);
  writeRemittance(out, tx.remittance);
  out.push('</CdtTrfTxInf>');
}

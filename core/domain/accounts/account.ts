import type { Address } from '../addresses/address.js';

export const ROLES = ['admin', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** How the seller is reached; printed in the seller block of every invoice. Each null when not published. */
export interface SellerContact {
  email: string | null;
  phone: string | null;
  website: string | null;
}

/** Where customers pay to; a bank account is its IBAN (electronic form), the rest is optional. */
export interface SellerBankAccount {
  accountHolder: string | null;
  iban: string;
  bic: string | null;
}

/**
 * The operator's company: the seller of every invoice. Its legal profile (address, tax and
 * register identifiers, contact, bank account) is what invoices print about the seller;
 * core/domain/accounts/seller-details.ts says when it is complete.
 */
export class Account {
  id!: string;
  companyName!: string;
  /** IANA zone; every date that bounds energy or money means 00:00 here. */
  timezone!: string;
  currency!: string;
  address!: Address | null;
  /** USt-IdNr., normalised: DE and nine digits. */
  vatId!: string | null;
  /** Steuernummer as the tax office wrote it. */
  taxNumber!: string | null;
  registerCourt!: string | null;
  registerNumber!: string | null;
  managingDirectors!: string[];
  contact!: SellerContact;
  bankAccount!: SellerBankAccount | null;
  /** SEPA creditor identifier (Gläubiger-ID), normalised: no spaces, upper case. */
  sepaCreditorId!: string | null;
  /** Null: invoices print DEFAULT_DISPUTE_RESOLUTION_TEXT. */
  disputeResolutionText!: string | null;
  createdAt!: Date;
  updatedAt!: Date;
}

export class User {
  id!: string;
  accountId!: string;
  firstName!: string | null;
  lastName!: string | null;
  phone1!: string | null;
  phone2!: string | null;
  email!: string;
  role!: Role;
  createdAt!: Date;
  updatedAt!: Date;
}

/** Long-lived credential of a user; only its hash is stored. */
export class ApiToken {
  id!: string;
  accountId!: string;
  userId!: string;
  tokenHash!: string;
  createdAt!: Date;
  revokedAt!: Date | null;
}

/** Single-use credential; every use rotates it within its family, a reuse revokes the family. */
export class RefreshToken {
  id!: string;
  accountId!: string;
  apiTokenId!: string;
  familyId!: string;
  tokenHash!: string;
  expiresAt!: Date;
  usedAt!: Date | null;
  revokedAt!: Date | null;
  createdAt!: Date;
}

export function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone.includes('/') || zone === 'UTC';
  } catch {
    return false;
  }
}

export const ROLES = ['admin', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export class Account {
  id!: string;
  companyName!: string;
  /** IANA zone; every date that bounds energy or money means 00:00 here. */
  timezone!: string;
  currency!: string;
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

import type { Address } from '../addresses/address.js';

export class Customer {
  id!: string;
  accountId!: string;
  companyName!: string | null;
  address!: Address | null;
  deliveryAddress!: Address | null;
  invoiceEmail!: string | null;
  email!: string | null;
  number!: string | null;
  salutation!: string | null;
  title!: string | null;
  firstName!: string | null;
  lastName!: string | null;
  phone1!: string | null;
  phone2!: string | null;
  customAttributes!: Record<string, unknown>;
  createdAt!: Date;
  updatedAt!: Date;
}

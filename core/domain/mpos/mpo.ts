export class Mpo {
  id!: string;
  accountId!: string;
  channel!: string;
  provider!: string;
  name!: string;
  createdAt!: Date;
  updatedAt!: Date;
}

/** The one MPO per account that virtual meters name. */
export function isVirtualMpo(mpo: Pick<Mpo, 'channel' | 'provider'>): boolean {
  return mpo.channel === 'pseudo' && mpo.provider === 'virtual';
}

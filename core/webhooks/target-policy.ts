import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/** Only public unicast addresses may receive webhooks (no private, loopback, link-local, reserved). */
function isPublicAddress(address: string): boolean {
  return ipaddr.isValid(address) && ipaddr.process(address).range() === 'unicast';
}

/**
 * Where webhooks may go: https to public addresses, unless private targets are
 * allowed (tests, local setups), which also allows http. Checked when an endpoint is saved (here)
 * and again at every delivery attempt (the sending agent), so a DNS change cannot sneak past.
 */
export class TargetPolicy {
  constructor(private readonly allowPrivateTargets: boolean) {}

  /** Why this URL may not receive webhooks, or null when it may. */
  async problemWith(url: string): Promise<string | null> {
    const target = new URL(url);
    if (this.allowPrivateTargets) return ['http:', 'https:'].includes(target.protocol) ? null : 'Webhook URLs use http or https.';
    if (target.protocol !== 'https:') return 'Webhook URLs use https.';
    // A trailing dot only marks a name fully qualified: `localhost.` is `localhost`.
    const host = target.hostname.replace(/^\[|\]$/g, '').replace(/\.+$/, '');
    if (ipaddr.isValid(host)) return isPublicAddress(host) ? null : `${host} is not a public address.`;
    if (host === 'localhost' || host.endsWith('.localhost')) return `${host} is not a public address.`;
    const addresses = await lookup(host, { all: true }).catch(() => []);
    const blocked = addresses.find((entry) => !isPublicAddress(entry.address));
    // A name that does not resolve yet is allowed; every attempt checks again.
    return blocked ? `${host} resolves to ${blocked.address}, which is not a public address.` : null;
  }
}

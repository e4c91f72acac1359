import { randomUUID } from 'node:crypto';
import type { Actor } from '../auth/actor.js';
import type { Clock } from '../clock.js';
import { generateSecret } from '../domain/webhooks/signature.js';
import { WebhookEndpoint } from '../domain/webhooks/webhook.js';
import { ValidationError } from '../errors.js';
import { mergeUpdate } from '../patching.js';
import { listPage, loadOwned, timestampsOf, type ListResult, type ResourceService } from '../resource.service.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { parseInput } from '../validation.js';
import type { SecretBox } from './secret-box.js';
import type { TargetPolicy } from './target-policy.js';
import {
  createWebhookEndpointCommand,
  listWebhookEndpointsQuery,
  updateWebhookEndpointCommand,
  type WebhookEndpointView,
  type WebhookEndpointWithSecretView,
} from './webhooks.commands.js';
import type { WebhookEndpointRepository } from './webhooks.repository.js';

/** After a rotation the old secret signs along for this long, so receivers can switch over. */
export const PREVIOUS_SECRET_VALIDITY_MS = 24 * 3600 * 1000;

export interface WebhookEndpointsDependencies {
  endpoints: WebhookEndpointRepository;
  secrets: SecretBox;
  targets: TargetPolicy;
  uow: UnitOfWork;
  clock: Clock;
}

function present(endpoint: WebhookEndpoint): WebhookEndpointView {
  const { id, url, events, headers, enabled } = endpoint;
  return { id, url, events, headers, enabled, ...timestampsOf(endpoint) };
}

/** Webhook endpoints; the secret is shown at creation and rotation only. */
export class WebhookEndpointsService implements ResourceService<WebhookEndpointView> {
  constructor(private readonly deps: WebhookEndpointsDependencies) {}

  async create(actor: Actor, input: unknown): Promise<WebhookEndpointWithSecretView> {
    const command = parseInput(createWebhookEndpointCommand, input);
    await this.assertTargetAllowed(command.url);
    return this.deps.uow.transactional(async () => {
      const now = this.deps.clock.now();
      const secret = generateSecret();
      const endpoint = Object.assign(new WebhookEndpoint(), {
        id: randomUUID(),
        accountId: actor.accountId,
        ...command,
        secret: this.deps.secrets.seal(secret),
        previousSecret: null,
        previousSecretExpiresAt: null,
        createdAt: now,
        updatedAt: now,
      });
      this.deps.endpoints.add(endpoint);
      return { ...present(endpoint), secret };
    });
  }

  async get(actor: Actor, id: string): Promise<WebhookEndpointView> {
    return present(await loadOwned(this.deps.endpoints, actor, 'webhook_endpoint', id));
  }

  list(actor: Actor, query: unknown): Promise<ListResult<WebhookEndpointView>> {
    return listPage(this.deps.endpoints, actor, listWebhookEndpointsQuery, query, (items) => items.map(present));
  }

  async update(actor: Actor, id: string, patch: unknown): Promise<WebhookEndpointView> {
    return this.deps.uow.transactional(async () => {
      const endpoint = await loadOwned(this.deps.endpoints, actor, 'webhook_endpoint', id);
      const { merged } = mergeUpdate({ current: present(endpoint), patch, patchSchema: updateWebhookEndpointCommand, createSchema: createWebhookEndpointCommand });
      if (merged.url !== endpoint.url) await this.assertTargetAllowed(merged.url);
      Object.assign(endpoint, { ...merged, updatedAt: this.deps.clock.now() });
      return present(endpoint);
    });
  }

  async delete(actor: Actor, id: string): Promise<WebhookEndpointView> {
    return this.deps.uow.transactional(async () => {
      const endpoint = await loadOwned(this.deps.endpoints, actor, 'webhook_endpoint', id);
      this.deps.endpoints.remove(endpoint);
      return present(endpoint);
    });
  }

  /** A new secret; the current one keeps signing (second signature) for 24 hours. */
  async rotateSecret(actor: Actor, id: string): Promise<WebhookEndpointWithSecretView> {
    return this.deps.uow.transactional(async () => {
      const endpoint = await loadOwned(this.deps.endpoints, actor, 'webhook_endpoint', id);
      const now = this.deps.clock.now();
      const secret = generateSecret();
      Object.assign(endpoint, {
        previousSecret: endpoint.secret,
        previousSecretExpiresAt: new Date(now.getTime() + PREVIOUS_SECRET_VALIDITY_MS),
        secret: this.deps.secrets.seal(secret),
        updatedAt: now,
      });
      return { ...present(endpoint), secret };
    });
  }

  private async assertTargetAllowed(url: string): Promise<void> {
    const problem = await this.deps.targets.problemWith(url);
    if (problem) throw new ValidationError([{ path: 'url', code: 'webhook_target_not_allowed', message: problem }]);
  }
}

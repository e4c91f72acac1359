import type { Actor } from '../auth/actor.js';
import type { Clock } from '../clock.js';
import type { WebhookDelivery } from '../domain/webhooks/webhook.js';
import { NotFoundError } from '../errors.js';
import { isUuid } from '../domain/ids.js';
import type { JobQueue } from '../queue/job-queue.js';
import { loadOwned, type ListResult } from '../resource.service.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { parseInput } from '../validation.js';
import { WEBHOOK_QUEUE, type DeliverWebhooksJob } from './webhook-dispatcher.js';
import { listDeliveriesQuery, type DeliveryView } from './webhooks.commands.js';
import type { WebhookDeliveryRepository, WebhookEndpointRepository } from './webhooks.repository.js';

export interface WebhookDeliveriesDependencies {
  endpoints: WebhookEndpointRepository;
  deliveries: WebhookDeliveryRepository;
  queue: JobQueue;
  uow: UnitOfWork;
  clock: Clock;
}

export function presentDelivery(delivery: WebhookDelivery): DeliveryView {
  const { id, endpointId, eventId, eventType, state, attempts } = delivery;
  return {
    id,
    endpointId,
    eventId,
    eventType,
    state,
    attempts,
    nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
    deliveredAt: delivery.deliveredAt?.toISOString() ?? null,
    createdAt: delivery.createdAt.toISOString(),
  };
}

/** The delivery log of an endpoint, and replays. */
export class WebhookDeliveriesService {
  constructor(private readonly deps: WebhookDeliveriesDependencies) {}

  async listForEndpoint(actor: Actor, endpointId: string, query: unknown): Promise<ListResult<DeliveryView>> {
    const { limit, offset, ...filter } = parseInput(listDeliveriesQuery, query, { unknownCode: 'unknown_parameter' });
    await loadOwned(this.deps.endpoints, actor, 'webhook_endpoint', endpointId);
    const { items, total } = await this.deps.deliveries.listForEndpoint(actor.accountId, endpointId, filter, { limit, offset });
    return { data: items.map(presentDelivery), total };
  }

  async get(actor: Actor, id: string): Promise<DeliveryView> {
    return presentDelivery(await this.load(actor, id));
  }

  /** Sends the delivery again, now: also a delivered one (a replay) or one that has failed for good. */
  async retry(actor: Actor, id: string): Promise<DeliveryView> {
    const delivery = await this.deps.uow.transactional(async () => {
      const found = await this.load(actor, id);
      found.sendAgain(this.deps.clock.now());
      return found;
    });
    await this.deps.queue.enqueue(WEBHOOK_QUEUE, { accountId: delivery.accountId, endpointId: delivery.endpointId } satisfies DeliverWebhooksJob, delivery.endpointId);
    return presentDelivery(delivery);
  }

  private async load(actor: Actor, id: string): Promise<WebhookDelivery> {
    const found = isUuid(id) ? await this.deps.deliveries.findById(actor.accountId, id) : null;
    if (!found) throw new NotFoundError('webhook_delivery', id);
    return found;
  }
}

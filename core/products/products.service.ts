import { randomUUID } from 'node:crypto';
import type { Actor } from '../auth/actor.js';
import type { Clock } from '../clock.js';
import { ElectricityProduct } from '../domain/products/electricity-product.js';
import { mergeUpdate } from '../patching.js';
import type { ResourceRepository } from '../resource.repository.js';
import { listPage, loadOwned, timestampsOf, type ListResult, type ResourceService } from '../resource.service.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { parseInput } from '../validation.js';
import { createProductCommand, listProductsQuery, removedProductFields, updateProductCommand, type ProductView } from './products.commands.js';

export type ProductRepository = ResourceRepository<ElectricityProduct>;

function present(product: ElectricityProduct): ProductView {
  const { id, name, description, prepaymentConfiguration, fuelMix } = product;
  return { id, name, description, prepaymentConfiguration, fuelMix, ...timestampsOf(product) };
}

export class ProductsService implements ResourceService<ProductView> {
  constructor(
    private readonly products: ProductRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async create(actor: Actor, input: unknown): Promise<ProductView> {
    const command = parseInput(createProductCommand, input, { removed: removedProductFields });
    return this.uow.transactional(async () => {
      const now = this.clock.now();
      const product = Object.assign(new ElectricityProduct(), { id: randomUUID(), accountId: actor.accountId, ...command, createdAt: now, updatedAt: now });
      this.products.add(product);
      return present(product);
    });
  }

  async get(actor: Actor, id: string): Promise<ProductView> {
    return present(await loadOwned(this.products, actor, 'electricity_product', id));
  }

  async getMany(actor: Actor, ids: readonly string[]): Promise<ProductView[]> {
    return (await this.products.findByIds(actor.accountId, ids)).map(present);
  }

  list(actor: Actor, query: unknown): Promise<ListResult<ProductView>> {
    return listPage(this.products, actor, listProductsQuery, query, (items) => items.map(present));
  }

  async update(actor: Actor, id: string, patch: unknown): Promise<ProductView> {
    return this.uow.transactional(async () => {
      const product = await loadOwned(this.products, actor, 'electricity_product', id);
      const { merged } = mergeUpdate({
        current: present(product),
        patch,
        patchSchema: updateProductCommand,
        createSchema: createProductCommand,
        removed: removedProductFields,
      });
      Object.assign(product, { ...merged, updatedAt: this.clock.now() });
      return present(product);
    });
  }
}

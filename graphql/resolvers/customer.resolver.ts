import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { pageOf } from '../../core/pagination.js';
import type { CustomerView } from '../../core/customers/customers.commands.js';
import { toPlain, type GraphQLContext } from '../context.js';
import { crudResolver, NOT_FOUND } from '../crud-resolver.js';
import { InvoiceType } from '../types/invoice.types.js';
import { PaymentMethodType } from '../types/payment.types.js';
import { AccountInput, AccountType, CustomAttributeInput, CustomAttributeListArgs, CustomAttributeListType, CustomAttributeType, UserListType, UserType } from '../types/account.types.js';
import { ListArgs } from '../types/common.types.js';
import { ContractType } from '../types/contract.types.js';
import { CustomerInput, CustomerListType, CustomerType, ProductInput, ProductListType, ProductType } from '../types/customer.types.js';

@Resolver(() => CustomerType)
export class CustomerResolver extends crudResolver({
  name: 'Customer',
  plural: 'Customers',
  type: CustomerType,
  list: CustomerListType,
  args: ListArgs,
  input: CustomerInput,
  deletable: true,
  service: ({ services }) => services.customers,
}) {
  @FieldResolver(() => [ContractType])
  async contracts(@Root() customer: CustomerView, @Args(() => ListArgs) page: ListArgs, @Ctx() { loaders }: GraphQLContext) {
    return pageOf(await loaders.contractsByCustomer.load(customer.id), toPlain(page));
  }

  @FieldResolver(() => [PaymentMethodType])
  async paymentMethods(@Root() customer: CustomerView, @Args(() => ListArgs) page: ListArgs, @Ctx() { loaders }: GraphQLContext) {
    return pageOf(await loaders.paymentMethodsByCustomer.load(customer.id), toPlain(page));
  }

  @FieldResolver(() => [InvoiceType], { description: 'Invoices and credit notes, oldest first' })
  async invoices(@Root() customer: CustomerView, @Args(() => ListArgs) page: ListArgs, @Ctx() { loaders }: GraphQLContext) {
    return pageOf(await loaders.invoicesByCustomer.load(customer.id), toPlain(page));
  }
}

@Resolver(() => ProductType)
export class ProductResolver extends crudResolver({
  name: 'ElectricityProduct',
  plural: 'ElectricityProducts',
  type: ProductType,
  list: ProductListType,
  args: ListArgs,
  input: ProductInput,
  service: ({ services }) => services.products,
}) {}

@Resolver(() => CustomAttributeType)
export class CustomAttributeResolver extends crudResolver({
  name: 'CustomAttribute',
  plural: 'CustomAttributes',
  type: CustomAttributeType,
  list: CustomAttributeListType,
  args: CustomAttributeListArgs,
  input: CustomAttributeInput,
  service: ({ services }) => services.customAttributes,
}) {}

@Resolver(() => UserType)
export class UserResolver extends crudResolver({
  name: 'User',
  plural: 'Users',
  type: UserType,
  list: UserListType,
  args: ListArgs,
  service: ({ services }) => services.users,
}) {
  @Query(() => AccountType, { nullable: true, description: NOT_FOUND })
  account(@Arg('id', () => ID) id: string, @Ctx() { actor, services }: GraphQLContext) {
    return services.users.getAccount(actor, id);
  }

  @Mutation(() => AccountType, { description: 'Company name and seller profile (merge patch, like PATCH /v1/accounts/{id})' })
  updateAccount(@Arg('id', () => ID) id: string, @Arg('input', () => AccountInput) input: AccountInput, @Ctx() { actor, services }: GraphQLContext) {
    return services.users.updateAccount(actor, id, toPlain(input));
  }
}

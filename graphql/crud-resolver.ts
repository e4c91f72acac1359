import { Arg, Args, Ctx, ID, Mutation, Query, Resolver, type ClassType } from 'type-graphql';
import type { ResourceService } from '../core/resource.service.js';
import { toPlain, type GraphQLContext } from './context.js';

export interface CrudOptions<V> {
  /** Singular type name: Meter -> meter(id), meters(...), createMeter, updateMeter. */
  name: string;
  plural: string;
  type: ClassType;
  list: ClassType;
  args: ClassType;
  input?: ClassType;
  /** False for resources that are created but never changed (MPOs). */
  updatable?: boolean;
  /** Adds `delete<Name>(id)` for internal tools (the REST API has no DELETE for these). */
  deletable?: boolean;
  service(context: GraphQLContext): ResourceService<V>;
}

const lower = (name: string) => name.charAt(0).toLowerCase() + name.slice(1);

/** How every single lookup answers an id the caller cannot see; graphql/errors.ts writes the error. */
export const NOT_FOUND = 'Null for an unknown id, with an error of extensions.kind not_found and extensions.code <resource>_not_found';

/**
 * Queries and mutations of one resource, calling the same core service as REST. Relations are
 * added by the concrete resolver with field resolvers that read through the request's DataLoaders.
 */
export function crudResolver<V>(options: CrudOptions<V>) {
  @Resolver()
  abstract class CrudResolver {
    // Nullable so that an unknown id nulls its own field only, not the fields queried beside it.
    @Query(() => options.type, { name: lower(options.name), nullable: true, description: NOT_FOUND })
    one(@Arg('id', () => ID) id: string, @Ctx() context: GraphQLContext) {
      return options.service(context).get(context.actor, id);
    }

    @Query(() => options.list, { name: lower(options.plural) })
    many(@Args(() => options.args) args: object, @Ctx() context: GraphQLContext) {
      return options.service(context).list(context.actor, toPlain(args));
    }
  }
  if (!options.input) return CrudResolver;
  const input: ClassType = options.input;

  @Resolver()
  abstract class CreatableResolver extends CrudResolver {
    @Mutation(() => options.type, { name: `create${options.name}` })
    create(@Arg('input', () => input) body: object, @Ctx() context: GraphQLContext) {
      return options.service(context).create!(context.actor, toPlain(body));
    }
  }
  if (options.updatable === false) return CreatableResolver;

  @Resolver()
  abstract class UpdatableResolver extends CreatableResolver {
    @Mutation(() => options.type, { name: `update${options.name}` })
    update(@Arg('id', () => ID) id: string, @Arg('input', () => input) body: object, @Ctx() context: GraphQLContext) {
      return options.service(context).update!(context.actor, id, toPlain(body));
    }
  }
  if (!options.deletable) return UpdatableResolver;

  @Resolver()
  abstract class DeletableResolver extends UpdatableResolver {
    @Mutation(() => options.type, { name: `delete${options.name}`, description: 'Deletes it when nothing refers to it (409 naming what does); answers it as it was' })
    remove(@Arg('id', () => ID) id: string, @Ctx() context: GraphQLContext) {
      return options.service(context).delete!(context.actor, id);
    }
  }
  return DeletableResolver;
}

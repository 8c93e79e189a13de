/**
 * The hero operations, one step each (heroes-routes.ts tables them): list (`?name=`, `?limit=&after=` paging), get,
 * create (200, a body `id` ignored; with an Idempotency-Key once per key and caller), update by path or by
 * `PUT /heroes` with the whole hero (the Tour of Heroes client), delete (204). Absent → 404; a duplicate name → 409
 * `entity_already_exists`.
 */
import type { Middleware } from 'koa';
import type { AuthState } from '../../auth/bearer-guard.ts';
import { NotFoundError, readBody } from '@heroes/http-kit';
import type { HeroListCache } from '../../data/hero-list-cache.ts';
import type { HeroRepository, HeroRow } from '@heroes/db/pg';
import type { CreateOnce } from '../idempotency/create-once.ts';
import { invalidValue, validationFailed } from '../validation-error.ts';
import { Hero, readHeroInput } from './hero-resource.ts';
import { existingId, type HeroIdState } from './parse-hero-id.ts';
import { readListQuery } from './read-list-query.ts';
import { sendHeroList } from './send-hero-list.ts';

export interface HeroStepsDeps {
  heroes: HeroRepository;
  /** The whole list's cache (the repository's writes must invalidate it: invalidatingWrites). */
  listCache?: HeroListCache;
  maxNameLength: number;
  /** Creates sent with an Idempotency-Key. */
  once: CreateOnce;
}

const JSON_ONLY = { expect: 'object', contentTypes: ['application/json'] } as const;

export function createHeroSteps({ heroes, maxNameLength, listCache, once }: HeroStepsDeps) {
  const found = (hero: HeroRow | undefined): HeroRow => {
    if (!hero) throw new NotFoundError();
    return hero;
  };

  const listHeroes: Middleware = async function listHeroes(ctx) {
    await sendHeroList(ctx, heroes, readListQuery(ctx), listCache);
  };

  const getHero: Middleware = async function getHero(ctx) {
    ctx.body = Hero.toMap(found(await heroes.find((ctx.state as HeroIdState).heroId)));
  };

  const createHero: Middleware = async function createHero(ctx) {
    const { name } = readHeroInput(await readBody(ctx, JSON_ONLY), maxNameLength);
    const { auth } = ctx.state as AuthState;
    const keyed = once.keyed(ctx, JSON.stringify(['POST /heroes', auth.clientId ?? '', auth.sub ?? auth.username ?? '']), [name]);
    await once.run(ctx, keyed, async (query) => Hero.toMap(await heroes.create(name, query)));
  };

  const updateHero: Middleware = async function updateHero(ctx) {
    const id = (ctx.state as HeroIdState).heroId;
    const input = readHeroInput(await readBody(ctx, JSON_ONLY), maxNameLength);
    if (input.id !== undefined && input.id !== id) throw validationFailed(`'id' does not match the path`);
    ctx.body = Hero.toMap(found(await heroes.update(id, input.name)));
  };

  const updateHeroFromBody: Middleware = async function updateHeroFromBody(ctx) {
    const input = readHeroInput(await readBody(ctx, JSON_ONLY), maxNameLength);
    if (input.id === undefined) throw validationFailed(`missing required input key(s): 'id'`);
    if (typeof input.id !== 'number' || !Number.isInteger(input.id)) throw invalidValue('id');
    const id = existingId(input.id);
    if (id === undefined) throw new NotFoundError();
    ctx.body = Hero.toMap(found(await heroes.update(id, input.name)));
  };

  const deleteHero: Middleware = async function deleteHero(ctx) {
    if (!(await heroes.remove((ctx.state as HeroIdState).heroId))) throw new NotFoundError();
    ctx.status = 204;
  };

  return { listHeroes, getHero, createHero, updateHero, updateHeroFromBody, deleteHero };
}

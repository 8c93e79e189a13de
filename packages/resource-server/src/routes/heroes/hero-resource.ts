/**
 * The hero over HTTP, `{ "id": int, "name": string }`: other keys → 400; a name is non-empty, at most maxLength,
 * stored exactly as sent (leading or trailing whitespace refused, not trimmed) and keeps the one text rule
 * (@heroes/text-rules: no control or invisible character, no lone surrogate).
 */
import { defineResource, filterKeys } from '@heroes/http-kit';
import { textProblem } from '@heroes/text-rules';
import { invalidValue, unknownKeys, validationFailed } from '../validation-error.ts';

export const Hero = defineResource();

export interface HeroInput {
  name: string;
  /** Present when the body had an `id` key (its value unchecked). */
  id?: unknown;
}

const HERO_KEYS = ['id', 'name'];

/**
 * Usage:
 *   const input = readHeroInput(await readBody(ctx, { expect: 'object' }), 100);
 */
export function readHeroInput(body: unknown, maxLength: number): HeroInput {
  const record = body as Record<string, unknown>;
  const filtered = filterKeys<Record<string, unknown>>(record, {
    reject: unknownKeys(record, HERO_KEYS),
    require: ['name'],
  });
  const { name } = filtered;
  if (typeof name !== 'string') throw invalidValue('name');
  checkHeroName(name, maxLength);
  return Object.hasOwn(filtered, 'id') ? { name, id: filtered.id } : { name };
}

function checkHeroName(name: string, maxLength: number): void {
  if (name.length === 0) throw validationFailed(`'name' must not be empty`);
  if (name.length > maxLength) throw validationFailed(`'name' must be at most ${maxLength} characters`);
  if (name.trim() !== name) throw validationFailed(`'name' must not start or end with whitespace`);
  const problem = textProblem(name);
  if (problem !== undefined) throw validationFailed(`'name' ${problem}`);
}

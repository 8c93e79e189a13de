/** What a server spawned through load-then-run.ts sends once its modules are loaded; the answer is the rest of its environment. */
export const LOADED = 'heroes:loaded';

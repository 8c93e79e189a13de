/**
 * What the authorization server, the edge and the web app must agree on: scope syntax and rules, the service's
 * scopes, built-in clients, revocation notices, DPoP, registration outcomes, resource indicators, refusal holds.
 */
export { MAX_SCOPE_LENGTH, MAX_SCOPE_VALUES, formatScopes, isScopeToken, parseScopeParameter, splitScopes, type ScopeParseResult } from './scope-syntax.ts';
export { grantsScope, isGranted } from './scope-rule.ts';
export { HERO_SCOPES, HEROES, HEROES_READ, HEROES_WRITE, OPENID, SERVICE_SCOPES_DESCRIPTION, authorityScopes, isServiceScope, mayGrant } from './service-scopes.ts';
export { TOKENS_REVOKED_CHANNEL, parseRevokedTokens, type RevokedTokens } from './revocation-notice.ts';
export { APP_CLIENT_ID, DEFAULT_RESOURCE_SERVER_CLIENT_ID, builtInClientRole } from './built-in-clients.ts';
export { DPOP_SIGNING_ALGS, JKT_SYNTAX } from './dpop.ts';
export { REGISTER_ERROR_MESSAGES, REGISTERED, REGISTERED_MESSAGE, registerErrorMessage, type RegisterErrorCode } from './registration-outcome.ts';
export { PROTECTED_RESOURCE_METADATA_PATH, audienceIncludes, isSameResource, protectedResourceMetadataUrl, resourceIdentifier } from './resource-indicator.ts';
export { EDGE_HOLDS_REFUSALS, HOLD_MS, REFUSED_MS, retryAfterWords } from './refusal-hold-headers.ts';

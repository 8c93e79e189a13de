/**
 * The scope model as the CLI help tells it (add-client, set-scopes); the
 * README's "Scope model" section says the same at more length.
 */
export const SCOPE_MODEL_HELP =
  'Scope model: a token grants only the scopes it records (deny by default). A client is granted at most its allowed scopes; a client registered without any is allowed exactly "heroes:read heroes:write". A parent scope grants its sub-scopes ("heroes" allows "heroes:read"). "openid" only asks for an ID token and never grants hero access. A request without scope gets every allowed scope; a request with one gets exactly what it asked for. Narrowing a client applies at its next refresh. Discovery (scopes_supported) lists the registered scopes plus "openid".';

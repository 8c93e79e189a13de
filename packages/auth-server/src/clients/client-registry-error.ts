/**
 * The one error type of the client registry: an expected failure (bad input, duplicate or unknown client) whose
 * `message` is one line safe to show an operator. Anything else the registry throws is unexpected.
 */
export type ClientRegistryErrorCode = 'invalid_input' | 'client_exists' | 'client_not_found';

export class ClientRegistryError extends Error {
  override name = 'ClientRegistryError';
  readonly code: ClientRegistryErrorCode;

  constructor(code: ClientRegistryErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

/** `Client ID 'x' already exists.` (the Aqueduct CLI's wording). */
export function clientExists(id: string, cause?: unknown): ClientRegistryError {
  return new ClientRegistryError('client_exists', `Client ID '${id}' already exists.`, { cause });
}

/** `Client ID 'x' does not exist.` (the Aqueduct CLI's wording). */
export function clientNotFound(id: string): ClientRegistryError {
  return new ClientRegistryError('client_not_found', `Client ID '${id}' does not exist.`);
}

/** A rejected argument; `message` says which and why, in one line. */
export function invalidInput(message: string): ClientRegistryError {
  return new ClientRegistryError('invalid_input', message);
}

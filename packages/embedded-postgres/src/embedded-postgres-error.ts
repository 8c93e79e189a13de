/** The embedded server cannot be used as asked; the message is the one line to show. */
export class EmbeddedPostgresError extends Error {
  override name = 'EmbeddedPostgresError';
}

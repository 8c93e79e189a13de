/**
 * Both servers in this test process on one database, as `npm start` wires
 * them: the authorization server on an ephemeral port, the edge on a free
 * one that is also its public base URL, the edge's clients registered.
 * Logs are silent unless LOG_LEVEL is set.
 *
 * Usage:
 *   const stack = await startInProcessStack(database.url, { dbQueryTimeoutMs: 2_000 }, { introspectionTimeoutMs: 30_000 });
 *   await fetch(`${stack.edge}/heroes`); ... await stack.close();
 */
import { createAuthServer, generateKeys, type AuthServerOptions } from '@heroes/auth-server';
import { createOpenApiDocument, createResourceServer, type ResourceServerOptions } from '@heroes/resource-server';
import { createLogger } from '@heroes/platform';
import { checkAnswersOf, freePort } from '@heroes/test-kit';

export interface InProcessStack {
  /** The edge's base URL (what clients call). */
  edge: string;
  /** Stops the edge, then the authorization server. */
  close(): Promise<void>;
}

export async function startInProcessStack(
  databaseUrl: string,
  authOptions: Partial<AuthServerOptions> = {},
  edgeOptions: Partial<ResourceServerOptions> = {},
): Promise<InProcessStack> {
  const port = await freePort();
  const publicBaseUrl = `http://127.0.0.1:${port}`;
  const auth = await createAuthServer({ databaseUrl, keys: generateKeys(), bcryptCost: 4, publicBaseUrl, logger: quietLogger('auth-server'), ...authOptions });
  const authListening = await auth.listen(0);
  const resource = createResourceServer({
    databaseUrl,
    clientSecret: 'in-process-resource-server-secret',
    authServerUrl: authListening.url,
    publicBaseUrl,
    bcryptCost: 4,
    logger: quietLogger('resource-server'),
    ...edgeOptions,
  });
  const running = await resource.listen(port, '127.0.0.1');
  await resource.clientReady;
  checkAnswersOf(running.url, createOpenApiDocument());
  return {
    edge: running.url,
    async close() {
      await running.close();
      await auth.close();
    },
  };
}

function quietLogger(name: string) {
  const logger = createLogger(name);
  logger.level = process.env['LOG_LEVEL'] ?? 'silent';
  return logger;
}

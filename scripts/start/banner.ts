/**
 * The banner `npm start` prints once both servers are ready (on stderr): where the service is, its
 * pages for a browser, and a first session. It suggests registering `my-app` only while no client of
 * that id exists (a second start would otherwise suggest a command that fails).
 */
import pg from 'pg';

export interface BannerFacts {
  publicBaseUrl: string;
  authPort: number;
  /** `HEROES_DATA_DIR=... ` when the CLI needs it to find this service's database, else ''. */
  cliPrefix: string;
  databaseUrl: string;
}

const FIRST_CLIENT = 'my-app';

async function clientExists(databaseUrl: string, id: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
    const found = await client.query('SELECT 1 FROM oauth_clients WHERE id = $1', [id]);
    return (found.rowCount ?? 0) > 0;
  } catch {
    return false; // the banner is advice: a failed look-up keeps the first-time text
  } finally {
    await client.end().catch(() => {});
  }
}

export async function formatBanner({ publicBaseUrl, authPort, cliPrefix, databaseUrl }: BannerFacts): Promise<string> {
  const registered = await clientExists(databaseUrl, FIRST_CLIENT);
  const client = registered
    ? `The OAuth client '${FIRST_CLIENT}' is registered (${cliPrefix}npx auth list-clients shows every client).`
    : `Register an OAuth client:
  ${cliPrefix}npx auth add-client --id ${FIRST_CLIENT} --secret my-secret`;
  return `
Heroes service is running at ${publicBaseUrl}
  in a browser: ${publicBaseUrl}/app (the web app), ${publicBaseUrl}/docs (the API, to try)
  authorization server (own process): http://127.0.0.1:${authPort}

${client}

Then:
  curl -X POST ${publicBaseUrl}/register -H 'Content-Type: application/json' -d '{"username":"bob","password":"bobs-long-password"}'
  curl -X POST ${publicBaseUrl}/auth/token -u ${FIRST_CLIENT}:my-secret -d 'grant_type=password&username=bob&password=bobs-long-password'

Press Ctrl-C to stop.`;
}

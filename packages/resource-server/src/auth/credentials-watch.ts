/**
 * Notices when the authorization server refuses the resource server's own client credentials (introspection
 * answers 401: client removed or secret rotated): readiness check `clientCredentials` goes down from the first
 * refusal until a call is accepted (probing itself meanwhile, so a wrong start and its repair are seen without
 * traffic); one error line saying how to repair it, one info line when it ends. Other failures are `authServer`'s.
 */
import type { Logger } from '@heroes/http-kit';
import { IntrospectionUnavailableError, type IntrospectToken } from './introspect-token.ts';

/** A token no authorization server issued: its introspection is `{"active":false}` for a client it accepts. */
const PROBE_TOKEN = 'readiness-probe-not-a-token';

export interface CredentialsWatch {
  /** `introspect`, reporting each answer (accepted or refused) to the watch. */
  observe(introspect: IntrospectToken): IntrospectToken;
  /** Readiness: false while the authorization server refuses the credentials. */
  check(introspect: IntrospectToken): Promise<boolean>;
}

export function createCredentialsWatch({ clientId, logger }: { clientId: string; logger: Logger }): CredentialsWatch {
  let refused = false;
  let accepted = false;

  function report(nowRefused: boolean, err?: unknown): void {
    accepted = !nowRefused;
    if (nowRefused === refused) return;
    refused = nowRefused;
    if (nowRefused) {
      logger.error(
        { clientId, status: (err as IntrospectionUnavailableError).status, answer: (err as Error).cause },
        `the authorization server refuses the resource server's client credentials (client '${clientId}' missing or its secret changed): every bearer request answers 503. Repair: restart the resource server (it creates its client when missing and sets its secret to RESOURCE_SERVER_CLIENT_SECRET)`,
      );
    } else {
      logger.info({ clientId }, "the authorization server accepts the resource server's client credentials again");
    }
  }

  function isRefusal(err: unknown): boolean {
    return err instanceof IntrospectionUnavailableError && err.status === 401;
  }

  return {
    observe(introspect) {
      return async (token) => {
        try {
          const info = await introspect(token);
          report(false);
          return info;
        } catch (err) {
          if (isRefusal(err)) report(true, err);
          throw err;
        }
      };
    },
    async check(introspect) {
      if (accepted) return true;
      try {
        await introspect(PROBE_TOKEN);
        report(false);
        return true;
      } catch (err) {
        if (isRefusal(err)) {
          report(true, err);
          return false;
        }
        return true;
      }
    },
  };
}

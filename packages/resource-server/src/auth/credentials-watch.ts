/**
 * Notices when the authorization server refuses the resource server's own
 * client credentials (its introspection calls answer 401: the client was
 * removed, or its secret changed with `auth rotate-secret --force`). Then
 * every bearer request answers 503, so:
 * - readiness gets a check of its own (`clientCredentials`): down from the
 *   first refused call (a request's, or the check's) until a call is
 *   accepted again. Until the first accepted call, and while refused, the
 *   check asks the authorization server itself (an introspection of a token
 *   nobody issued), so a start with wrong credentials and the repair are both
 *   seen without traffic; while accepted it costs nothing;
 * - one error line says what happened and how to repair it, when the refusal
 *   is first seen (by a request or by the check); one info line when it ends.
 * Any other failure (unreachable, 5xx) is the `authServer` check's business
 * and leaves this one up.
 *
 * Usage:
 *   const watch = createCredentialsWatch({ clientId, logger });
 *   const introspect = watch.observe(createIntrospector(...));
 *   createHealth({ checks: { clientCredentials: () => watch.check(introspect) } });
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

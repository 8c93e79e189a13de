/**
 * Every answer a test gets from a watched server is checked against its OpenAPI document, so an undescribed
 * status, header, Content-Type or body cannot ship. checkAnswersOf(baseUrl, document) wraps `fetch` once per
 * process (other origins, undocumented paths and methods are not checked; `skip` leaves out paths another server
 * answers). Status, headers and type fail the fetch; the body is checked on a copy and fails the test file.
 */
import { OpenApiContract, type OpenApiDocument } from './openapi-contract.ts';

const watched = new Map<string, { contract: OpenApiContract; routes: Array<{ template: string; pattern: RegExp }> }>();
let originalFetch: typeof fetch | undefined;

export interface CheckAnswersOptions {
  /** Paths whose answers come from elsewhere in this test (a fake authorization server behind the edge). */
  skip?: (template: string) => boolean;
}

export function checkAnswersOf(baseUrl: string, openapi: object, options: CheckAnswersOptions = {}): void {
  const document = openapi as OpenApiDocument;
  if (typeof document.paths !== 'object') throw new Error('checkAnswersOf: not an OpenAPI document (no paths)');
  const contract = new OpenApiContract(document);
  const routes = Object.keys(document.paths).filter((template) => !options.skip?.(template)).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));
  watched.set(new URL(baseUrl).origin, { contract, routes });
  if (originalFetch) return;
  originalFetch = globalThis.fetch;
  const plainFetch = originalFetch;
  globalThis.fetch = async function checkedFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const response = await plainFetch(input, init);
    const request = input instanceof Request ? input : undefined;
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    await checkAnswer(method, response);
    return response;
  };
}

async function checkAnswer(method: string, response: Response): Promise<void> {
  if (response.redirected || !response.url) return; // the method of the final request is not known here
  const url = new URL(response.url);
  const server = watched.get(url.origin);
  const route = server?.routes.find(({ pattern }) => pattern.test(url.pathname));
  if (!server || !route || !server.contract.documents(method, route.template)) return;
  const where = `${method} ${url.pathname}${url.search ? '?…' : ''}`;
  server.contract.checkHead(method, route.template, response, where);
  if (!server.contract.hasJsonBody(method, route.template, response)) return;
  const copy = response.clone();
  void copy.text().then(
    (text) => server.contract.checkJsonBody(method, route.template, response, text, where),
    () => {}, // the test cancelled or lost the body: nothing to check
  ).catch((error: unknown) => {
    queueMicrotask(() => { throw error; });
  });
}

/**
 * Checks real answers against an OpenAPI 3.1 document: the status must be documented for the
 * operation, every header it marks required present, the Content-Type one of its media types, and
 * a JSON body valid against its schema (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses it).
 * Records which operations were exercised (`exercised`).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export type OpenApiDocument = { paths: Record<string, Record<string, unknown>> };
type Response_ = { content?: Record<string, { schema?: unknown }>; headers?: Record<string, { required?: boolean }> };
type Operation = { responses: Record<string, Response_> };

export class OpenApiContract {
  readonly #doc: OpenApiDocument;
  readonly #ajv: Ajv2020;
  readonly exercised = new Set<string>();

  constructor(doc: OpenApiDocument) {
    this.#doc = doc;
    this.#ajv = new Ajv2020({ strict: false, allErrors: true });
    (addFormats as unknown as (ajv: Ajv2020) => void)(this.#ajv);
    this.#ajv.addSchema(doc as object, 'openapi.json');
  }

  /** Every `METHOD path` of the document. */
  operations(): string[] {
    return Object.entries(this.#doc.paths).flatMap(([path, item]) =>
      Object.keys(item).filter((key) => ['get', 'put', 'post', 'delete', 'patch'].includes(key)).map((method) => `${method.toUpperCase()} ${path}`));
  }

  documents(method: string, path: string): boolean {
    return this.#operation(method, path) !== undefined;
  }

  /** Throws a readable error when the answer does not match the document. */
  async check(method: string, path: string, res: Response): Promise<void> {
    const key = `${method.toUpperCase()} ${path}`;
    if (!this.#operation(method, path)) throw new Error(`${key} is not documented`);
    this.checkHead(method, path, res, key);
    const text = await res.text();
    if (this.hasJsonBody(method, path, res)) this.checkJsonBody(method, path, res, text, key);
  }

  /** Status, required headers and Content-Type; `where` names the request in the error. */
  checkHead(method: string, path: string, res: Response, where: string): void {
    const response = this.#operation(method, path)!.responses[String(res.status)];
    if (!response) throw new Error(`${where}: status ${res.status} is not documented`);
    this.exercised.add(`${method.toUpperCase()} ${path}`);
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      if (header.required && !res.headers.has(name)) throw new Error(`${where} ${res.status}: documented header ${name} is missing`);
    }
    if (!response.content || res.status === 204 || method.toUpperCase() === 'HEAD') return;
    const type = mediaType(res);
    if (!(type in response.content)) throw new Error(`${where} ${res.status}: Content-Type ${type} is not one of ${Object.keys(response.content).join(', ')}`);
  }

  hasJsonBody(method: string, path: string, res: Response): boolean {
    const response = this.#operation(method, path)?.responses[String(res.status)];
    const type = mediaType(res);
    return response?.content?.[type] !== undefined && (type === 'application/json' || type.endsWith('+json'));
  }

  checkJsonBody(method: string, path: string, res: Response, text: string, where: string): void {
    const { status } = res;
    const type = mediaType(res);
    const pointer = `openapi.json#/paths/${escape(path)}/${method.toLowerCase()}/responses/${status}/content/${escape(type)}/schema`;
    const validate = this.#ajv.getSchema(pointer) ?? this.#ajv.compile({ $ref: pointer });
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`${where} ${status}: the body is not JSON: ${text.slice(0, 300)}`);
    }
    if (!validate(body)) throw new Error(`${where} ${status}: ${this.#ajv.errorsText(validate.errors)} in ${text.slice(0, 300)}`);
  }

  #operation(method: string, path: string): Operation | undefined {
    return this.#doc.paths[path]?.[method.toLowerCase()] as Operation | undefined;
  }
}

const mediaType = (res: Response) => (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Checks real answers against the OpenAPI document: the status must be
 * documented for the operation, every header it marks required present,
 * the Content-Type one of its media types,
 * and a JSON body valid against its schema (ajv, JSON Schema 2020-12 as
 * OpenAPI 3.1 uses it). Records which operations were exercised.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Doc = { paths: Record<string, Record<string, unknown>> };
type Operation = { responses: Record<string, { content?: Record<string, { schema?: unknown }>; headers?: Record<string, { required?: boolean }> }> };

export class OpenApiContract {
  readonly #doc: Doc;
  readonly #ajv: Ajv2020;
  readonly exercised = new Set<string>();

  constructor(doc: Doc) {
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

  /** Throws a readable error when the answer does not match the document. */
  async check(method: string, path: string, res: Response): Promise<void> {
    const key = `${method.toUpperCase()} ${path}`;
    const operation = this.#doc.paths[path]?.[method.toLowerCase()] as Operation | undefined;
    if (!operation) throw new Error(`${key} is not documented`);
    const response = operation.responses[String(res.status)];
    if (!response) throw new Error(`${key}: status ${res.status} is not documented`);
    this.exercised.add(key);
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      if (header.required && !res.headers.has(name)) throw new Error(`${key} ${res.status}: documented header ${name} is missing`);
    }
    const text = await res.text();
    if (!response.content) return;
    const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
    if (!(type in response.content)) throw new Error(`${key} ${res.status}: Content-Type ${type} is not one of ${Object.keys(response.content).join(', ')}`);
    if (type !== 'application/json' && !type.endsWith('+json')) return;
    const pointer = `openapi.json#/paths/${escape(path)}/${method.toLowerCase()}/responses/${res.status}/content/${escape(type)}/schema`;
    const validate = this.#ajv.getSchema(pointer) ?? this.#ajv.compile({ $ref: pointer });
    const body: unknown = JSON.parse(text);
    if (!validate(body)) throw new Error(`${key} ${res.status}: ${this.#ajv.errorsText(validate.errors)} in ${text.slice(0, 300)}`);
  }
}

const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

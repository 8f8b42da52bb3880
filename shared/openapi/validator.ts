/**
 * Checks JSON values against the schemas of the OpenAPI document with ajv (JSON Schema 2020-12,
 * the dialect of OpenAPI 3.1) and ajv-formats. Used by the tests only (ajv is a dev dependency);
 * nothing the service runs imports it.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM interop.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as typeof addFormatsModule;

/** The document's $id inside ajv; its `#/components/...` references are rewritten to it. */
const DOCUMENT_ID = 'https://hotel-integration.local/openapi.json';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export interface OpenApiLike {
  paths: Record<string, Record<string, unknown>>;
  webhooks?: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
}

export interface ValidatorOptions {
  /**
   * Treat every object schema without `additionalProperties` as closed, so a field the document
   * does not describe fails validation (the document itself stays open for evolution).
   */
  closedObjects?: boolean;
}

function mapSchema(value: Json, options: ValidatorOptions): Json {
  if (Array.isArray(value)) return value.map((v) => mapSchema(v, options));
  if (value === null || typeof value !== 'object') return value;
  const result: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    result[key] = key === '$ref' && typeof child === 'string' && child.startsWith('#/') ? `${DOCUMENT_ID}${child}` : mapSchema(child, options);
  }
  const types = Array.isArray(result.type) ? result.type : [result.type];
  if (options.closedObjects && types.includes('object') && result.properties !== undefined && result.additionalProperties === undefined) {
    result.additionalProperties = false;
  }
  return result;
}

/** An RFC 6901 pointer into the document. */
export function resolvePointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`Only local references are supported: ${ref}`);
  let node: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (node === null || typeof node !== 'object' || !(key in (node as object))) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

export function formatErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
}

export interface ResponseLike {
  status: number;
  headers: Headers;
  body: unknown;
}

export class OpenApiValidator {
  readonly ajv: Ajv2020;
  private readonly cache = new WeakMap<object, ValidateFunction>();

  constructor(
    readonly document: OpenApiLike,
    private readonly options: ValidatorOptions = {},
  ) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.ajv);
    // Only the components are schemas; they are registered under the document's id.
    this.ajv.addSchema({ $id: DOCUMENT_ID, components: mapSchema((document.components ?? {}) as Json, options) } as object);
  }

  /** Compiles a schema of the document (inline or a reference); throws if ajv refuses it. */
  compile(schema: object): ValidateFunction {
    let validate = this.cache.get(schema);
    if (!validate) {
      validate = this.ajv.compile(mapSchema(schema as Json, this.options) as object);
      this.cache.set(schema, validate);
    }
    return validate;
  }

  /** Problems of `value` against `schema` (empty when valid). */
  check(schema: object, value: unknown): string[] {
    const validate = this.compile(schema);
    return validate(value) ? [] : formatErrors(validate.errors);
  }

  operation(operationId: string): { path: string; method: string; operation: Record<string, unknown> } {
    for (const section of [this.document.paths, this.document.webhooks ?? {}]) {
      for (const [path, item] of Object.entries(section)) {
        for (const [method, operation] of Object.entries(item)) {
          if ((operation as { operationId?: string }).operationId === operationId) return { path, method, operation: operation as Record<string, unknown> };
        }
      }
    }
    throw new Error(`No operation ${operationId} in the document`);
  }

  /** The response object documented for a status (exact, then `4XX`-style range, then default). */
  responseOf(operationId: string, status: number): Record<string, unknown> | undefined {
    const responses = this.operation(operationId).operation.responses as Record<string, Record<string, unknown>>;
    const found = responses[String(status)] ?? responses[`${Math.floor(status / 100)}XX`] ?? responses.default;
    return found && '$ref' in found ? (resolvePointer(this.document, found.$ref as string) as Record<string, unknown>) : found;
  }

  /**
   * Problems of a real response against the document: status documented, content type and
   * body schema, required headers present, documented headers valid.
   */
  checkResponse(operationId: string, response: ResponseLike): string[] {
    const documented = this.responseOf(operationId, response.status);
    if (!documented) return [`status ${response.status} is not documented for ${operationId}`];
    const problems: string[] = [];
    for (const [name, raw] of Object.entries((documented.headers ?? {}) as Record<string, Record<string, unknown>>)) {
      const header = (raw.$ref ? { ...(resolvePointer(this.document, raw.$ref as string) as object), ...raw } : raw) as { required?: boolean; schema?: object };
      const value = response.headers.get(name);
      if (value === null) {
        if (header.required) problems.push(`header ${name} is required but missing`);
        continue;
      }
      if (header.schema) problems.push(...this.check(header.schema, value).map((p) => `header ${name}: ${p}`));
    }
    const content = documented.content as Record<string, { schema?: object }> | undefined;
    const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
    if (!content) {
      if (response.body !== undefined && response.body !== '') problems.push(`a body was sent, but ${operationId} ${response.status} documents none`);
      return problems;
    }
    const media = content[contentType];
    if (!media) return [...problems, `content type ${contentType || '(none)'} is not documented for ${operationId} ${response.status} (${Object.keys(content).join(', ')})`];
    if (media.schema) problems.push(...this.check(media.schema, response.body).map((p) => `body ${p}`));
    return problems;
  }

  /**
   * Problems of a whole request against the operation's request body, as a validating proxy (such
   * as Stoplight Prism) in front of the service judges it: a body where none is documented, none
   * where one is required, its content type, its schema. `body` undefined or '': none was sent.
   */
  checkRequest(operationId: string, request: { contentType?: string; body?: unknown }): string[] {
    const requestBody = this.operation(operationId).operation.requestBody as { required?: boolean; content: Record<string, { schema?: object }> } | undefined;
    if (request.body === undefined || request.body === '') return requestBody?.required ? [`${operationId} requires a request body, and none was sent`] : [];
    if (!requestBody) return [`${operationId} documents no request body, and one was sent`];
    const contentType = (request.contentType ?? '').split(';')[0]!.trim();
    const media = requestBody.content[contentType];
    if (!media) return [`content type ${contentType || '(none)'} is not documented for ${operationId}'s request (${Object.keys(requestBody.content).join(', ')})`];
    return media.schema ? this.check(media.schema, request.body) : [];
  }

  /** Problems of a request body against the operation's documented request body. */
  checkRequestBody(operationId: string, body: unknown, contentType = 'application/json'): string[] {
    const requestBody = this.operation(operationId).operation.requestBody as { content: Record<string, { schema: object }> } | undefined;
    const media = requestBody?.content[contentType];
    if (!media) return [`${operationId} documents no ${contentType} request body`];
    return this.check(media.schema, body);
  }
}

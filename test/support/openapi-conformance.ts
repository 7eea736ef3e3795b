import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { HttpResponse, TestApp } from './test-app';

type Schema = Record<string, any>;

const DOCUMENT_ID = 'openapi.json';

/**
 * Checks real answers against the served OpenAPI document: the body of each status must match the
 * schema the document gives it. Strict about fields: an object schema that does not say otherwise
 * takes no undocumented field, so a field the code returns but the document leaves out fails too
 * (the error schema itself allows extra fields, as it says).
 */
export class OpenApiConformance {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly checked = new Set<string>();

  private constructor(private readonly document: Schema) {
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: DOCUMENT_ID, components: closedObjects(structuredClone(document.components)) });
  }

  static async of(app: TestApp): Promise<OpenApiConformance> {
    // Fetched directly, so that recordAnswers does not count the document among the API's answers.
    const response = await fetch(new URL('/api/openapi.json', app.url), { signal: AbortSignal.timeout(10_000) });
    return new OpenApiConformance((await response.json()) as Schema);
  }

  /**
   * What is wrong with an answer of `METHOD /document/path` (the path as the document writes it,
   * `{id}` for a parameter); empty when it matches.
   */
  problems(method: string, documentPath: string, response: Pick<HttpResponse, 'status' | 'body' | 'headers'>): string[] {
    const route = `${method.toUpperCase()} ${documentPath}`;
    const operation = this.document.paths[documentPath]?.[method.toLowerCase()];
    if (!operation) return [`${route} is not in the document`];
    const documented = operation.responses?.[String(response.status)];
    if (!documented) return [`${route} answered ${response.status}, which the document does not list`];
    const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
    const media = documented.content?.[contentType];
    if (!media) return [`${route} ${response.status} answered ${contentType || 'no content type'}, which the document does not list`];
    const key = `${route} ${response.status} ${contentType}`;
    this.checked.add(key);
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(referToDocument(closedObjects(structuredClone(media.schema ?? {}))));
      this.compiled.set(key, validate);
    }
    if (validate(response.body)) return [];
    return (validate.errors ?? []).map(
      (e) =>
        `${key}: ${e.instancePath || 'body'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${e.params.additionalProperty})` : ''}`,
    );
  }

  /**
   * What is wrong with the answers recorded by `recordAnswers`, each matched to its operation by
   * its path (`/api/projects/6740…` is `/api/projects/{id}`); the same message once.
   */
  problemsOfAnswers(answers: readonly RecordedAnswer[]): string[] {
    const templates = Object.keys(this.document.paths).map((path) => ({
      path,
      pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
    const problems = answers.flatMap(({ method, path, response }) => {
      // A literal path wins over a template (`/api/projects/folders` is no project id).
      const documentPath = templates.find((t) => t.path === path)?.path ?? templates.find((t) => t.pattern.test(path))?.path ?? path;
      return this.problems(method, documentPath, response);
    });
    return [...new Set(problems)];
  }

  /** The document's operations, as `METHOD /path`. */
  get operations(): string[] {
    return Object.entries(this.document.paths as Record<string, Schema>).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
  }

  /** The `METHOD /path status type` answers checked so far. */
  get coverage(): ReadonlySet<string> {
    return this.checked;
  }
}

export interface RecordedAnswer {
  method: string;
  /** The request's path, without its query. */
  path: string;
  response: HttpResponse;
}

/**
 * Records every answer `app.request` gets from here on, for a test to check them against the
 * document at its end (`problemsOfAnswers`).
 */
export function recordAnswers(app: TestApp): RecordedAnswer[] {
  const answers: RecordedAnswer[] = [];
  const request = app.request.bind(app);
  app.request = async (method, path, options) => {
    const response = await request(method, path, options);
    answers.push({ method: method.toUpperCase(), path: new URL(path, app.url).pathname, response });
    return response;
  };
  return answers;
}

const referToDocument = (schema: Schema): Schema =>
  JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${DOCUMENT_ID}#/components/`));

/** Every object schema with properties and no word on other fields takes no other field. */
function closedObjects(node: unknown): any {
  if (Array.isArray(node)) return node.map(closedObjects);
  if (node === null || typeof node !== 'object') return node;
  const schema = node as Schema;
  for (const [key, value] of Object.entries(schema)) schema[key] = closedObjects(value);
  if (schema.properties && typeof schema.properties === 'object' && !('additionalProperties' in schema)) {
    schema.additionalProperties = false;
  }
  return schema;
}

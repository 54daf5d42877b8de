import type {
  OpenAPIObject,
  OperationObject,
  ReferenceObject,
  SchemaObject,
} from '@nestjs/swagger';

const COMPONENTS = '#/components/schemas/';

type Schema = SchemaObject | ReferenceObject;

const isReference = (schema: Schema): schema is ReferenceObject => '$ref' in schema;

/** Every operation in the document (the service has no HEAD or OPTIONS route of its own). */
export function operationsOf(document: OpenAPIObject): OperationObject[] {
  return Object.values(document.paths).flatMap((pathItem) =>
    [pathItem.get, pathItem.post, pathItem.put, pathItem.patch, pathItem.delete].filter(
      (operation) => operation !== undefined,
    ),
  );
}

/**
 * An operation without a security requirement is public: `security: []` says so, where leaving
 * it out would tell a client nothing (and a linter, that it was forgotten).
 */
export function markPublicOperations(document: OpenAPIObject): OpenAPIObject {
  for (const operation of operationsOf(document)) {
    if (!operation.security?.length) operation.security = [];
  }
  return document;
}

/** The schemas a schema holds: its properties, items and alternatives. */
function subschemas(schema: SchemaObject): Schema[] {
  const { properties, items, additionalProperties, allOf, oneOf, anyOf } = schema;
  return [
    ...Object.values(properties ?? {}),
    ...(items ? [items] : []),
    ...(typeof additionalProperties === 'object' ? [additionalProperties] : []),
    ...(allOf ?? []),
    ...(oneOf ?? []),
    ...(anyOf ?? []),
  ];
}

/**
 * `nullable` widens only the `type` beside it (OpenAPI 3.0.3), never a referenced schema, so the
 * `nullable` that @nestjs/swagger writes beside a lone `allOf` allows no null to a validator and
 * is an error to a linter. Such a property becomes one of the referenced schema or null.
 */
export function nullableReferences(document: OpenAPIObject): OpenAPIObject {
  const schemas = document.components?.schemas ?? {};
  const visit = (schema: Schema): void => {
    if (isReference(schema)) return;
    const [only, ...others] = schema.allOf ?? [];
    if (schema.nullable && only && isReference(only) && others.length === 0) {
      const target = schemas[only.$ref.slice(COMPONENTS.length)];
      const type = target && !isReference(target) ? (target.type ?? 'object') : 'object';
      delete schema.nullable;
      delete schema.type;
      delete schema.allOf;
      // The only way OpenAPI 3.0 has to spell a schema that null alone satisfies.
      schema.oneOf = [only, { type, nullable: true, enum: [null] }];
    }
    subschemas(schema).forEach(visit);
  };
  Object.values(schemas).forEach(visit);
  return document;
}

/**
 * The service refuses any property a body does not list (the ValidationPipe's whitelist, the
 * ingestion's own check): every object schema a JSON request body reaches says so.
 */
export function closeRequestSchemas(document: OpenAPIObject): OpenAPIObject {
  const schemas = document.components?.schemas ?? {};
  const seen = new Set<string>();
  const visit = (schema: Schema): void => {
    if (isReference(schema)) {
      const name = schema.$ref.slice(COMPONENTS.length);
      if (seen.has(name) || !schemas[name]) return;
      seen.add(name);
      return visit(schemas[name]);
    }
    if (schema.properties && schema.additionalProperties === undefined) {
      schema.additionalProperties = false;
    }
    subschemas(schema).forEach(visit);
  };
  for (const { requestBody } of operationsOf(document)) {
    const schema =
      requestBody && 'content' in requestBody && requestBody.content['application/json']?.schema;
    if (schema) visit(schema);
  }
  return document;
}

import { z } from 'zod';

/** A JSON Schema object as OpenAPI 3.1 takes it (JSON Schema 2020-12). */
export type JsonSchema = Record<string, unknown>;

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/**
 * Named schemas of the document: each zod schema registered once under its component name,
 * then converted by zod's own `z.toJSONSchema` (requests as their input, answers as their
 * output), so a schema used in several places becomes one `$ref`.
 */
export class SchemaSet {
  private readonly input = z.registry<{ id: string }>();
  private readonly output = z.registry<{ id: string }>();
  private readonly names = new Set<string>();
  /** Names that are another name's schema (the same zod schema used by two calls). */
  private readonly aliases = new Map<string, string>();

  /** Registers `schema` as `name` (in the request or the answer registry); returns a `$ref`. */
  add(name: string, schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const registry = io === 'input' ? this.input : this.output;
    if (this.names.has(name)) throw new Error(`schema name ${name} used twice`);
    this.names.add(name);
    const existing = registry.get(schema)?.id;
    if (existing) {
      this.aliases.set(name, existing);
    } else {
      registry.add(schema, { id: name });
    }
    return ref(name);
  }

  /** Every named schema, converted; `$id`/`$schema` dropped (they live in `components`). */
  toComponents(): Record<string, JsonSchema> {
    const uri = (id: string) => `#/components/schemas/${id}`;
    const converted: Record<string, JsonSchema> = {};
    for (const [registry, io] of [
      [this.input, 'input'],
      [this.output, 'output'],
    ] as const) {
      const { schemas } = z.toJSONSchema(registry, { io, uri, unrepresentable: 'any' });
      for (const [id, schema] of Object.entries(schemas)) {
        const { $id: _id, $schema: _schema, ...rest } = schema as JsonSchema;
        converted[id] = io === 'input' ? defaultsDescribed(rest) : rest;
      }
    }
    for (const [alias, target] of this.aliases) converted[alias] = ref(target);
    return Object.fromEntries(Object.entries(converted).sort(([a], [b]) => a.localeCompare(b)));
  }
}

/**
 * A request field with a default may be left out, but generators read `default` in a named
 * schema as "always present" (openapi-typescript makes such a field required, so
 * `getGroupList({})` would not typecheck). In requests the default is therefore said in the
 * field's description instead.
 */
function defaultsDescribed(schema: unknown): JsonSchema {
  return walk(schema) as JsonSchema;
  function walk(node: unknown): unknown {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(node as JsonSchema)) {
      // `properties` maps names to schemas: a property called "default" is not the keyword.
      if (key === 'properties' && value && typeof value === 'object') {
        out[key] = Object.fromEntries(
          Object.entries(value as JsonSchema).map(([name, s]) => [name, walk(s)]),
        );
      } else if (key !== 'default') {
        out[key] = walk(value);
      }
    }
    const record = node as JsonSchema;
    if ('default' in record) {
      const said = `Default: ${JSON.stringify(record.default)}.`;
      out.description = typeof out.description === 'string' ? `${out.description} ${said}` : said;
    }
    return out;
  }
}

/**
 * valibot -> JSON Schema (draft 2020-12) for the subset the config schemas use, so `mogui config schema <name>`
 * publishes exactly what the loaders enforce. What a plain schema cannot say (a check with code in it, keys that
 * start with `_`) is stated next to it with `v.metadata({ jsonSchema: {...} })`, merged over the generated part.
 */
type Node = { kind?: string; type: string; [k: string]: unknown };
export type JsonSchema = Record<string, unknown>;

const DRAFT = "https://json-schema.org/draft/2020-12/schema";

function applyAction(out: JsonSchema, a: Node): void {
  switch (a.type) {
    case "min_length":
      out[out.type === "array" ? "minItems" : "minLength"] = a.requirement;
      break;
    case "non_empty":
      out[out.type === "array" ? "minItems" : "minLength"] = 1;
      break;
    case "regex":
      out.pattern = (a.requirement as RegExp).source;
      break;
    case "integer":
      out.type = "integer";
      break;
    case "min_value":
      out.minimum = a.requirement;
      break;
    case "max_value":
      out.maximum = a.requirement;
      break;
    case "description":
      out.description = a.description;
      break;
    case "title":
      out.title = a.title;
      break;
    case "metadata": {
      const m = (a.metadata as { jsonSchema?: JsonSchema }).jsonSchema;
      if (m) Object.assign(out, m);
      break;
    }
    default:
      break; // checks and transforms: code, not schema (state them with metadata)
  }
}

function objectSchema(s: Node): JsonSchema {
  const entries = s.entries as Record<string, Node>;
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [k, e] of Object.entries(entries)) {
    properties[k] = toJsonSchema(e);
    if (e.type !== "optional" && e.type !== "nullish" && e.type !== "exact_optional") required.push(k);
  }
  const out: JsonSchema = { type: "object", properties };
  if (required.length) out.required = required;
  if (s.type === "strict_object") out.additionalProperties = false;
  return out;
}

function baseSchema(s: Node): JsonSchema {
  switch (s.type) {
    case "string":
      return { type: "string" };
    case "number":
      return { type: "number" };
    case "boolean":
      return { type: "boolean" };
    case "null":
      return { type: "null" };
    case "literal":
      return { const: s.literal };
    case "picklist":
      return { enum: [...(s.options as unknown[])] };
    case "unknown":
    case "any":
    case "custom":
      return {};
    case "optional":
    case "exact_optional": {
      const out = toJsonSchema(s.wrapped as Node);
      if (s.default !== undefined && typeof s.default !== "function") out.default = s.default;
      return out;
    }
    case "nullable":
    case "nullish":
      return { anyOf: [toJsonSchema(s.wrapped as Node), { type: "null" }] };
    case "array":
      return { type: "array", items: toJsonSchema(s.item as Node) };
    case "object":
    case "loose_object":
    case "strict_object":
      return objectSchema(s);
    case "record":
      return { type: "object", additionalProperties: toJsonSchema(s.value as Node) };
    case "union":
      return { anyOf: (s.options as Node[]).map(toJsonSchema) };
    default:
      throw new Error(`json-schema: unsupported valibot schema '${s.type}'`);
  }
}

export function toJsonSchema(schema: unknown): JsonSchema {
  const s = schema as Node;
  const pipe = s.pipe as Node[] | undefined;
  if (!pipe) return baseSchema(s);
  const out = toJsonSchema(pipe[0]);
  for (const a of pipe.slice(1)) applyAction(out, a);
  return out;
}

export function documentSchema(schema: unknown, id: string, title: string): JsonSchema {
  return { $schema: DRAFT, $id: id, title, ...toJsonSchema(schema) };
}

/**
 * valibot -> JSON Schema (draft 2020-12) with @valibot/to-json-schema, so `mogui config schema <name>` publishes
 * exactly what the loaders enforce. What a plain schema cannot say (a check with code in it, keys that start with
 * `_`) is stated next to it with `v.metadata({ jsonSchema: {...} })`, merged over the generated part; checks and
 * transforms are code, not schema, and are left out (a schema kind the library cannot convert still throws).
 */
import { toJsonSchema as convert, type ConversionConfig } from "@valibot/to-json-schema";
import type * as v from "valibot";

export type JsonSchema = Record<string, unknown>;

const DRAFT = "https://json-schema.org/draft/2020-12/schema";

const CODE_ONLY = new Set(["check", "check_items", "raw_check", "transform", "raw_transform"]);

const CONFIG: ConversionConfig = {
  target: "draft-2020-12",
  overrideAction: ({ valibotAction, jsonSchema }) => {
    if (valibotAction.type === "metadata") {
      const { jsonSchema: extra, ...rest } = jsonSchema as JsonSchema;
      return extra && typeof extra === "object" ? { ...rest, ...(extra as JsonSchema) } : undefined;
    }
    return CODE_ONLY.has(valibotAction.type) ? jsonSchema : undefined;
  },
  overrideSchema: ({ valibotSchema, jsonSchema }) => {
    if (valibotSchema.type === "custom") return jsonSchema;
    // An object with no required key says nothing by `required: []`: leave it out, as hand-written schemas do.
    if (Array.isArray(jsonSchema.required) && jsonSchema.required.length === 0) {
      const { required: _none, ...rest } = jsonSchema;
      return rest;
    }
    return undefined;
  },
};

function toJsonSchema(schema: v.GenericSchema): JsonSchema {
  const { $schema: _draft, ...out } = convert(schema, CONFIG) as JsonSchema;
  return out;
}

export function documentSchema(schema: v.GenericSchema, id: string, title: string): JsonSchema {
  return { $schema: DRAFT, $id: id, title, ...toJsonSchema(schema) };
}

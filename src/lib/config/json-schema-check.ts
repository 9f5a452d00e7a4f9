/**
 * A small JSON Schema validator for the keywords the generated schemas use (type, const, enum, properties, required,
 * additionalProperties, patternProperties, propertyNames, items, minItems, minLength, pattern, minimum, maximum,
 * minProperties, anyOf, not). Tests use it to check each config example against its published schema
 * independently of valibot, so the generated schema itself is what is being tested.
 */
import type { JsonSchema } from "./json-schema.ts";

function typeOf(x: unknown): string {
  if (x === null) return "null";
  if (Array.isArray(x)) return "array";
  if (typeof x === "number") return Number.isInteger(x) ? "integer" : "number";
  return typeof x;
}

function typeMatches(want: string, x: unknown): boolean {
  const t = typeOf(x);
  return want === t || (want === "number" && t === "integer");
}

function checkObject(s: JsonSchema, x: Record<string, unknown>, at: string, out: string[]): void {
  const props = (s.properties ?? {}) as Record<string, JsonSchema>;
  for (const k of (s.required as string[] | undefined) ?? []) if (!(k in x)) out.push(`${at}: missing required '${k}'`);
  if (typeof s.minProperties === "number" && Object.keys(x).length < s.minProperties) out.push(`${at}: fewer than ${s.minProperties} properties`);
  const patterns = Object.entries((s.patternProperties ?? {}) as Record<string, JsonSchema>);
  for (const [k, val] of Object.entries(x)) {
    if (s.propertyNames) validateInto(s.propertyNames as JsonSchema, k, `${at}{key ${k}}`, out);
    const hits = patterns.filter(([p]) => new RegExp(p, "u").test(k));
    for (const [, ps] of hits) validateInto(ps, val, `${at}.${k}`, out);
    if (k in props) validateInto(props[k]!, val, `${at}.${k}`, out);
    else if (!hits.length && s.additionalProperties !== undefined) {
      if (s.additionalProperties === false) out.push(`${at}: unexpected property '${k}'`);
      else if (typeof s.additionalProperties === "object") validateInto(s.additionalProperties as JsonSchema, val, `${at}.${k}`, out);
    }
  }
}

function validateInto(s: JsonSchema, x: unknown, at: string, out: string[]): void {
  if (s.type !== undefined && !typeMatches(s.type as string, x)) return void out.push(`${at}: expected ${String(s.type)}, got ${typeOf(x)}`);
  if ("const" in s && JSON.stringify(s.const) !== JSON.stringify(x)) out.push(`${at}: expected const ${JSON.stringify(s.const)}`);
  if (Array.isArray(s.enum) && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(x))) out.push(`${at}: not one of ${JSON.stringify(s.enum)}`);
  if (Array.isArray(s.anyOf)) {
    const ok = (s.anyOf as JsonSchema[]).some((sub) => validateSchema(sub, x).length === 0);
    if (!ok) out.push(`${at}: matches none of anyOf`);
  }
  if (s.not && validateSchema(s.not as JsonSchema, x).length === 0) out.push(`${at}: matches 'not'`);
  if (typeof x === "string") {
    if (typeof s.minLength === "number" && x.length < s.minLength) out.push(`${at}: shorter than ${s.minLength}`);
    if (typeof s.pattern === "string" && !new RegExp(s.pattern, "u").test(x)) out.push(`${at}: does not match ${s.pattern}`);
  }
  if (typeof x === "number") {
    if (typeof s.minimum === "number" && x < s.minimum) out.push(`${at}: below ${s.minimum}`);
    if (typeof s.maximum === "number" && x > s.maximum) out.push(`${at}: above ${s.maximum}`);
  }
  if (Array.isArray(x)) {
    if (typeof s.minItems === "number" && x.length < s.minItems) out.push(`${at}: fewer than ${s.minItems} items`);
    if (s.items && typeof s.items === "object") x.forEach((e, i) => validateInto(s.items as JsonSchema, e, `${at}[${i}]`, out));
  }
  if (typeOf(x) === "object") checkObject(s, x as Record<string, unknown>, at, out);
}

/** Problems found (empty = valid). */
export function validateSchema(schema: JsonSchema, value: unknown): string[] {
  const out: string[] = [];
  validateInto(schema, value, "$", out);
  return out;
}

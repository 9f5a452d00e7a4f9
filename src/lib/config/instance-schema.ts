/**
 * The instance runtime config schema (reference §17, §30.3): what src/config/instance.ts validates with, and what
 * `mogui config schema instance-runtime` publishes. Messages are relative to the field (see issues.ts).
 */
import * as v from "valibot";
import { UNDERSCORE_KEYS } from "./issues.ts";

const STRING_OR_NULL = "must be a string or null in the instance runtime config";
const GLOBS_SHAPE = "must be a JSON object mapping runtime name to glob";

const NonBlank = v.pipe(v.string(), v.regex(/\S/));

const TranscriptGlobsSchema = v.pipe(
  // Not v.record: it accepts arrays (and copies its input), and this message must cover both.
  v.custom<Record<string, unknown>>((x) => typeof x === "object" && x !== null && !Array.isArray(x), GLOBS_SHAPE),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    for (const [k, val] of Object.entries(dataset.value as Record<string, unknown>)) {
      if (k.startsWith("_")) continue;
      if (k.trim() === "") return addIssue({ message: "keys must be non-empty runtime names" });
      if (!v.is(NonBlank, val)) return addIssue({ message: `['${k}'] must be a non-empty string glob` });
    }
  }),
  v.description("Runtime name -> transcript glob (`~` expands to $HOME). MOGUI_TRANSCRIPT_GLOB overrides every entry."),
  v.metadata({ jsonSchema: { type: "object", ...UNDERSCORE_KEYS, propertyNames: { pattern: "\\S" }, additionalProperties: { type: "string", pattern: "\\S" } } }),
);

export const InstanceRuntimeSchema = v.pipe(
  v.looseObject({
    master_host_runtime: v.pipe(v.optional(v.nullable(v.string(STRING_OR_NULL))), v.description("The runtime the master session runs on (claude, codex, grok, ...). Env MOGUI_MASTER_HOST_RUNTIME > MASTER_HOST_RUNTIME > this.")),
    transcript_globs: v.optional(v.nullable(TranscriptGlobsSchema)),
    product_repo: v.pipe(v.optional(v.nullable(v.string(STRING_OR_NULL))), v.description("Absolute path of the local product checkout (DECISIONS D3: a path, never owner/name). Env MOGUI_PRODUCT_REPO > this.")),
  }),
  v.description("Instance runtime config: $MOGUI_HOME/config/instance-runtime.json (or --config / $INSTANCE_RUNTIME_CONFIG). Keys starting with _ are ignored."),
  v.metadata({ jsonSchema: UNDERSCORE_KEYS }),
);

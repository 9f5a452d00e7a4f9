/**
 * The instance model tier policy, as documented for config/model-tier-policy.example.json (reference §30.2, §3.6 v2,
 * DECISIONS D12). The gate's own loader (src/lib/config/tier-policy.ts) decides what it enforces; this schema describes
 * the file for editors and for `mogui config validate`, and never imports the gate.
 */
import * as v from "valibot";
import { UNDERSCORE_KEYS } from "./issues.ts";

const ModelId = v.pipe(v.string("must be a string"), v.regex(/^\S(.*\S)?$/, "must be a non-empty model id without surrounding whitespace"));
const TierName = v.pipe(
  v.string(),
  v.regex(/^\S(.*\S)?$/),
  v.check((x) => x !== "unknown", "'unknown' is reserved"),
);

const AgentSchema = v.looseObject({
  runtime: v.pipe(v.string("must be a string"), v.description('The agent CLI runtime (claude, codex, cursor-agent, grok, ...), or "unknown".')),
  version: v.pipe(v.string("must be a string"), v.description('The measured CLI version, or "unknown" when unmeasured.')),
  model_ids: v.pipe(v.array(v.string("must be a string"), "must be a JSON array of strings"), v.description("Model ids this agent was measured to serve.")),
});

export const ModelTierPolicySchema = v.pipe(
  v.looseObject({
    version: v.pipe(v.literal(2, "must be 2 (this schema describes the v2 policy)"), v.description("Policy format version.")),
    consent: v.pipe(v.optional(v.picklist(["yes", "no", "manual-only"], "must be one of yes, no, manual-only"), "no"), v.description('Whether the operator consented to automatic tier use. Default "no"; the gate ignores it.')),
    agents: v.pipe(v.optional(v.array(AgentSchema, "must be a JSON array")), v.description("Measured agents (documentation; the gate ignores it).")),
    tiers: v.pipe(
      v.record(TierName, v.array(ModelId, "must be a JSON array of model ids"), "must be a JSON object mapping tier name to model ids"),
      v.check((t) => Object.keys(t).length > 0, "must name at least one tier"),
      v.description("Tier name -> model ids. Key order is cost order, most expensive first (D12). A model may appear in one tier only."),
      v.metadata({ jsonSchema: { minProperties: 1, propertyNames: { pattern: "^\\S(.*\\S)?$", not: { const: "unknown" } } } }),
    ),
    tier_rank: v.pipe(v.optional(v.array(v.string(), "must be a JSON array of tier names")), v.description("Optional explicit cost order (most expensive first); overrides the key order of tiers.")),
    fanout_caps: v.pipe(
      v.record(v.string(), v.pipe(v.number("must be a non-negative integer"), v.integer("must be a non-negative integer"), v.minValue(0, "must be a non-negative integer")), "must be a JSON object"),
      v.description('Tier (or "unknown") -> max concurrent worker dispatches per window. A tier without an entry is uncapped. Required.'),
    ),
    spend_caps: v.pipe(
      v.optional(v.record(v.string(), v.pipe(v.number("must be a non-negative integer"), v.integer("must be a non-negative integer"), v.minValue(0, "must be a non-negative integer")), "must be a JSON object")),
      v.description('Tier (or "unknown") -> max tokens (input + output + cache) the tier may spend per window, measured from the workers\' transcripts by `mogui spend record` (D37). A tier without an entry is uncapped.'),
    ),
    job_token_caps: v.pipe(
      v.optional(v.record(v.string(), v.pipe(v.number("must be a non-negative integer"), v.integer("must be a non-negative integer"), v.minValue(0, "must be a non-negative integer")), "must be a JSON object")),
      v.description('Tier (or "unknown") -> max tokens ONE job of that tier may spend (D44): `worker spawn` and `mogui dispatch` wire the spend brake with it when no --max-tokens is given. A tier without an entry has no brake.'),
    ),
    spend_window: v.pipe(
      v.optional(v.union([v.picklist(["5h", "7d"]), v.pipe(v.number(), v.integer(), v.minValue(1))], 'must be "5h", "7d" or a positive number of seconds')),
      v.description('The rolling window spend_caps count over: "5h", "7d" (the windows subscription plans count) or seconds. Default: window_seconds.'),
    ),
    window_seconds: v.pipe(v.optional(v.pipe(v.number("must be a positive integer"), v.integer("must be a positive integer"), v.minValue(1, "must be a positive integer")), 86400), v.description("The fan-out window in seconds (default 86400).")),
  }),
  v.check((p) => {
    const seen = new Set<string>();
    for (const ids of Object.values(p.tiers))
      for (const id of ids) {
        if (seen.has(id.toLowerCase())) return false;
        seen.add(id.toLowerCase());
      }
    return true;
  }, "a model id appears in more than one tier"),
  v.check((p) => Object.keys(p.fanout_caps).every((k) => k === "unknown" || k in p.tiers), "fanout_caps keys must be tiers or 'unknown'"),
  v.check((p) => Object.keys(p.spend_caps ?? {}).every((k) => k === "unknown" || k in p.tiers), "spend_caps keys must be tiers or 'unknown'"),
  v.check((p) => Object.keys(p.job_token_caps ?? {}).every((k) => k === "unknown" || k in p.tiers), "job_token_caps keys must be tiers or 'unknown'"),
  v.description("Instance model tier policy (v2): $MOGUI_HOME/config/model-tier-policy.json (or --tier-policy / $DISPATCH_TIER_POLICY). Keys starting with _ are ignored."),
  v.metadata({ jsonSchema: UNDERSCORE_KEYS }),
);

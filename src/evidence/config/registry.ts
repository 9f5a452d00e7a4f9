/**
 * The instance config files mogui knows, with the valibot schema each loader uses: `mogui config schema` prints the
 * JSON Schema generated from it, `mogui config validate` parses with it, and config/*.schema.json are generated
 * from this table (a test keeps them in sync and validates every example against its schema).
 */
import * as v from "valibot";
import { WorkspaceDescriptorSchema } from "../../evidence/descriptor/schema.ts";
import { descriptorPath, DESCRIPTOR_ENVS, parseDescriptor } from "../../evidence/descriptor/descriptor.ts";
import { parseTierPolicy, TIER_POLICY_ENV, TierPolicyError } from "../../lib/config/tier-policy.ts";
import { resolveStatePath, type Ctx } from "../../lib/context.ts";
import { INSTANCE_CONFIG_ENV, parseInstanceConfig, productRepoProblem } from "../../lib/config/instance.ts";
import { InstanceRuntimeSchema } from "../../lib/config/instance-schema.ts";
import { dropUnderscoreKeys, issueLine } from "../../lib/config/issues.ts";
import { documentSchema, type JsonSchema } from "../../lib/config/json-schema.ts";
import { ModelTierPolicySchema } from "../../lib/config/tier-policy-schema.ts";
import { errorMessage } from "../../lib/errors.ts";

export interface ConfigKind {
  name: string;
  title: string;
  file: string;
  /** The environment variable the commands' loader reads before $MOGUI_HOME/config/<file> (D2). */
  env: string;
  schema: v.GenericSchema;
  /** Throws an Error whose message is the loader's own wording. */
  validate(text: string, path: string): void;
}

function viaSchema(schema: v.GenericSchema, what: string) {
  return (text: string, path: string) => {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      throw new Error(`${what} is not valid JSON: ${path}: ${errorMessage(e)}`);
    }
    if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw new Error(`${what} root must be a JSON object: ${path}`);
    const r = v.safeParse(schema, dropUnderscoreKeys(raw as Record<string, unknown>));
    if (!r.success) throw new Error(`${what} ${path}: ${issueLine(r.issues[0])}`);
  };
}

export const CONFIG_KINDS: Record<string, ConfigKind> = {
  "instance-runtime": {
    name: "instance-runtime",
    title: "mogui instance runtime config",
    file: "instance-runtime.json",
    env: INSTANCE_CONFIG_ENV,
    schema: InstanceRuntimeSchema,
    // The loader's parse, then the example's placeholder product path, which names no checkout (issue 23).
    validate: (text, path) => {
      const problem = productRepoProblem(parseInstanceConfig(text, path).productRepo);
      if (problem) throw new Error(`instance runtime config ${path}: ${problem}`);
    },
  },
  "model-tier-policy": {
    name: "model-tier-policy",
    title: "mogui model tier policy (v2)",
    file: "model-tier-policy.json",
    env: TIER_POLICY_ENV,
    schema: ModelTierPolicySchema,
    // The published schema, then the gate's own loader: a file the gate would refuse is never reported valid.
    validate: (text, path) => {
      viaSchema(ModelTierPolicySchema, "model tier policy")(text, path);
      try {
        parseTierPolicy(path, text);
      } catch (e) {
        if (e instanceof TierPolicyError) throw new Error(`model tier policy ${e.message}`);
        throw e;
      }
    },
  },
  "workspace-descriptor": {
    name: "workspace-descriptor",
    title: "mogui workspace descriptor",
    file: "workspace-descriptor.json",
    env: DESCRIPTOR_ENVS[0],
    schema: WorkspaceDescriptorSchema,
    validate: (text, path) => void parseDescriptor(text, path),
  },
};

export const configNames = () => Object.keys(CONFIG_KINDS);

/** The file the commands would load (D2): --file > the loader's env variable(s) > $MOGUI_HOME/config/<file>. */
export function configPath(ctx: Pick<Ctx, "env" | "cwd">, kind: ConfigKind, flag?: string): string {
  if (kind.name === "workspace-descriptor") return descriptorPath(ctx, flag);
  return resolveStatePath(ctx, flag, kind.env, `config/${kind.file}`);
}

export function jsonSchemaFor(name: string): JsonSchema {
  const k = CONFIG_KINDS[name]!;
  return documentSchema(k.schema, `https://mogui.invalid/config/${k.name}.schema.json`, k.title);
}

/**
 * The workspace descriptor schema (reference §18, §30.4): which repositories a workspace holds, their role and the
 * actions prohibited on each. Used by src/descriptor/descriptor.ts and published by `mogui config schema`.
 * Messages are relative to the field (src/config/issues.ts adds `repositories[0].role` and the like).
 */
import * as v from "valibot";
import { UNDERSCORE_KEYS } from "../../lib/config/issues.ts";

const ROLES = ["ops", "product"] as const;
const KNOWN_CAPABILITIES = ["pr", "dispatch-target"];
const KNOWN_PROHIBITIONS = ["direct-main-commit", "force-push"];

const NON_EMPTY = "must be a non-empty string";
const NonEmpty = v.pipe(v.string(NON_EMPTY), v.regex(/\S/, NON_EMPTY));

const StringList = v.pipe(
  v.array(v.unknown(), "must be a JSON array of strings"),
  v.check((xs) => xs.every((x) => typeof x === "string"), "must be a JSON array of strings"),
  v.check((xs) => xs.every((x) => typeof x !== "string" || x.trim() !== ""), "entries must be non-empty strings"),
  v.metadata({ jsonSchema: { items: { type: "string", pattern: "\\S" } } }),
);

const MISSING: Record<string, string> = {
  name: NON_EMPTY,
  path: NON_EMPTY,
  role: `must be one of ['ops', 'product'], got 'None'`,
  prohibited: "is required: a JSON array of prohibited actions (use [] for none)",
};

const RepositorySchema = v.looseObject(
  {
    name: v.pipe(NonEmpty, v.description("Unique repository name; a bare single-segment path argument may match it.")),
    path: v.pipe(NonEmpty, v.description("Path relative to workspace_root ('.' = the root itself); unique.")),
    remote: v.pipe(v.optional(v.nullable(v.string("must be a string")), ""), v.description('Clone URL (informational); null counts as "".')),
    role: v.pipe(
      v.picklist(ROLES, (i) => `must be one of ['ops', 'product'], got '${String(i.input)}'`),
      v.description("product: the code being built; ops: the operations repository."),
    ),
    capabilities: v.pipe(v.optional(StringList), v.description(`Open set; known: ${KNOWN_CAPABILITIES.join(", ")}.`)),
    prohibited: v.pipe(StringList, v.description(`Actions refused on this repository (exact strings); known: ${KNOWN_PROHIBITIONS.join(", ")}. Required; [] for none.`)),
  },
  (i) => (i.path ? (MISSING[String(i.path[i.path.length - 1]!.key)] ?? "is required") : "must be a JSON object"),
);

const STRING_OR_NULL = "must be a string or null";

export const WorkspaceDescriptorSchema = v.pipe(
  v.looseObject({
    workspace_root_is_plain_folder: v.pipe(
      v.optional(v.boolean("must be a boolean"), true),
      v.check((x) => x === true, "must be true: this runtime rejects submodule parents and non-plain workspace roots"),
      v.description("Must be true: the workspace root is a plain folder, never a git repo or a submodule parent."),
      v.metadata({ jsonSchema: { const: true } }),
    ),
    workspace_root: v.pipe(v.optional(v.nullable(v.string(STRING_OR_NULL))), v.description("Absolute path of the workspace root (needed to match absolute paths).")),
    master_seat: v.pipe(v.optional(v.nullable(v.string(STRING_OR_NULL))), v.description("The master's Orca seat, typically id:folder:<uuid>.")),
    repositories: v.optional(v.array(RepositorySchema, "must be a JSON array")),
  }),
  v.description("Workspace descriptor: $MOGUI_HOME/config/workspace-descriptor.json (or --config / $WORKSPACE_DESCRIPTOR / $MOGUI_WORKSPACE_DESCRIPTOR). Keys starting with _ are ignored."),
  v.metadata({ jsonSchema: UNDERSCORE_KEYS }),
);

import { statSync } from "node:fs";
import { resolve } from "node:path";
import { COMMANDS } from "../index.ts";
import { defineMoguiCommand } from "../../src/lib/command.ts";
import { ExitError, UsageError } from "../../src/lib/errors.ts";
import { printJson, printLines } from "../../src/lib/output.ts";
import { selfcheck } from "../../src/ops-repo/selfcheck/selfcheck.ts";
import { commandTemplate } from "../../src/ops-repo/template/source.ts";

const NAME = "harness-selfcheck";

function dirFrom(cwd: string, flag: string | undefined, env: string | undefined, what: string): string {
  const raw = flag ?? env;
  if (!raw) throw new UsageError(`--${what} is required (or set MOGUI_${what.toUpperCase().replace("-", "_")})`, NAME);
  const p = resolve(cwd, raw);
  try {
    if (statSync(p).isDirectory()) return p;
  } catch {
    /* below */
  }
  throw new ExitError(2, `${NAME}: cannot enter ${what}: ${p}`);
}

/** `mogui hook <name>` commands this binary ships (not the installer). */
function shippedHooks(): string[] {
  return Object.keys(COMMANDS)
    .filter((k) => /^hook [^ ]+$/.test(k) && k !== "hook install")
    .map((k) => k.slice("hook ".length))
    .sort();
}

export default defineMoguiCommand({
  meta: {
    name: NAME,
    description: [
      "The master's boot self-check, one line each: Seat (this terminal's Orca workspace is the recorded master",
      "seat and no other live workspace owns it), Skills, Hooks (every command hook resolves, every mogui hook is",
      "wired), Card (workspace card deployed byte-identical), Tracker (bd resolves to <ops>/.beads) and Template.",
    ].join("\n"),
  },
  usage: [`${NAME} [--workspace-root <path>] [--ops-repo <path>] [--template <path>] [--json]`],
  args: {
    "workspace-root": { type: "string", valueHint: "path", description: "Workspace root (default $MOGUI_WORKSPACE_ROOT)" },
    "ops-repo": { type: "string", valueHint: "path", description: "Ops repository (default $MOGUI_OPS_REPO)" },
    template: { type: "string", valueHint: "path", description: "Template to compare with (default: embedded)" },
    json: { type: "boolean", description: "One JSON document {checks:[{name, ok, detail}], exit_code}" },
  },
  notes: [
    "Seat reads 'Master seat (absolute path)' and 'Master seat (workspace id)' from role-state.md ($ROLE_STATE_PATH\n" +
      "overrides), needs $ORCA_WORKSPACE_ID, and resolves folder workspaces through the Orca profile store:\n" +
      "$ORCA_DATA_PATH, else ~/Library/Application Support/orca/profiles/local-default/orca-data.json (macOS) or\n" +
      "${XDG_CONFIG_HOME:-~/.config}/orca/profiles/local-default/orca-data.json (Linux). BEADS_DIR must agree with bd.",
  ],
  examples: [`mogui ${NAME} --workspace-root /work/acme --ops-repo /work/acme/acme-ops`],
  async run(ctx, args) {
    const root = dirFrom(ctx.cwd, args["workspace-root"] as string | undefined, ctx.env.MOGUI_WORKSPACE_ROOT, "workspace-root");
    const ops = dirFrom(ctx.cwd, args["ops-repo"] as string | undefined, ctx.env.MOGUI_OPS_REPO, "ops-repo");
    const template = await commandTemplate(ctx.cwd, args.template as string | undefined, NAME);
    const { lines, code } = await selfcheck(ctx, { root, ops, template, knownHooks: shippedHooks() });
    if (args.json) printJson(ctx, { checks: lines, exit_code: code }, true);
    else printLines(ctx, lines.map((l) => `${l.name}: ${l.ok ? "" : "FAIL "}${l.detail}`));
    return code;
  },
});

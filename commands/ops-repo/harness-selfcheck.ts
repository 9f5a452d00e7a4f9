import { statSync } from "node:fs";
import { resolve } from "node:path";
import { COMMANDS } from "../index.ts";
import { ARGS } from "../../src/lib/args.ts";
import { defineCommand, failWith } from "../../src/lib/command.ts";
import { UsageError } from "../../src/lib/errors.ts";
import { printDoc, printLines } from "../../src/lib/output.ts";
import { selfcheck } from "../../src/ops-repo/selfcheck/selfcheck.ts";
import { commandTemplate, TEMPLATE_ARG } from "../../src/ops-repo/template/source.ts";

const NAME = "harness-selfcheck";

const EXITS = {
  ok: { code: 0, meaning: "every line fine" },
  failed: { code: 1, meaning: "at least one line failed (undecided seat, MISSEATED, AMBIGUOUS, missing skill, unwired hook, card drift, tracker, template drift)" },
  unreadable: { code: 2, meaning: "usage; workspace root or ops repo not a directory; .claude/settings.json unreadable; template unreadable" },
} as const;
const BY_CODE = { 0: "ok", 1: "failed", 2: "unreadable" } as const;

const unreadable = (msg: string): never => failWith(EXITS, "unreadable", `${NAME}: ${msg}`);

function dirFrom(cwd: string, flag: string | undefined, env: { name: string; value: string | undefined }, what: string): string {
  const raw = flag ?? env.value;
  if (!raw) throw new UsageError(`--${what} is required (or set ${env.name})`, NAME);
  const p = resolve(cwd, raw);
  try {
    if (statSync(p).isDirectory()) return p;
  } catch {
    /* below */
  }
  return unreadable(`cannot enter ${what}: ${p}`);
}

/** `mogui hook <name>` commands this binary ships (not the installer). */
function shippedHooks(): string[] {
  return Object.keys(COMMANDS)
    .filter((k) => /^hook [^ ]+$/.test(k) && k !== "hook install")
    .map((k) => k.slice("hook ".length))
    .sort();
}

export default defineCommand({
  meta: {
    name: NAME,
    description: [
      "The master's boot self-check, one line each: Seat (this terminal's Orca workspace is the recorded master",
      "seat and no other live workspace owns it), Skills, Hooks (every command hook resolves, every mogui hook is",
      "wired), Card (workspace card deployed byte-identical), Tracker (bd resolves to <ops>/.beads) and Template.",
    ].join("\n"),
  },
  usage: [`${NAME} [--workspace-root <path>] [--ops <path>] [--template <path>] [--json]`],
  args: {
    "workspace-root": { type: "string", valueHint: "path", description: "Workspace root (default $MOGUI_WORKSPACE_ROOT)" },
    ops: { ...ARGS.ops, alias: "ops-repo", description: "Ops repository (default $MOGUI_OPS_REPO; --ops-repo is the older name, still accepted)" },
    template: { ...TEMPLATE_ARG, description: "Template to compare with (default: embedded)" },
    json: { ...ARGS.json, description: "One compact JSON document {checks:[{detail, name, ok}], exit_code} (keys sorted)" },
  },
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: EXITS,
  notes: [
    "Seat reads 'Master seat (absolute path)' and 'Master seat (workspace id)' from role-state.md ($ROLE_STATE_PATH\n" +
      "overrides), needs $ORCA_WORKSPACE_ID, and resolves folder workspaces through the Orca profile store:\n" +
      "$ORCA_DATA_PATH, else ~/Library/Application Support/orca/profiles/local-default/orca-data.json (macOS) or\n" +
      "${XDG_CONFIG_HOME:-~/.config}/orca/profiles/local-default/orca-data.json (Linux). BEADS_DIR must agree with bd.",
  ],
  examples: [`mogui ${NAME} --workspace-root /work/acme --ops /work/acme/acme-ops`],
  async run({ ctx, args }) {
    const root = dirFrom(ctx.cwd, args["workspace-root"], { name: "MOGUI_WORKSPACE_ROOT", value: ctx.env.MOGUI_WORKSPACE_ROOT }, "workspace-root");
    const ops = dirFrom(ctx.cwd, args.ops, { name: "MOGUI_OPS_REPO", value: ctx.env.MOGUI_OPS_REPO }, "ops");
    const template = await commandTemplate(ctx.cwd, args.template, unreadable);
    const { lines, code } = await selfcheck(ctx, { root, ops, template, knownHooks: shippedHooks() });
    if (args.json) printDoc(ctx, { checks: lines, exit_code: code }, true);
    else
      printLines(
        ctx,
        lines.map((l) => `${l.name}: ${l.ok ? "" : "FAIL "}${l.detail}`),
      );
    return BY_CODE[code];
  },
});

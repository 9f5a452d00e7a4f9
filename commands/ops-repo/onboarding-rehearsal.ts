import { statSync } from "node:fs";
import { resolve } from "node:path";
import { INSTANCE_CONFIG_ENV, INSTANCE_CONFIG_FILE } from "../../src/lib/config/instance.ts";
import { descriptorPath } from "../../src/evidence/descriptor/descriptor.ts";
import { ARGS } from "../../src/lib/args.ts";
import { defineCommand } from "../../src/lib/command.ts";
import { resolveStatePath } from "../../src/lib/context.ts";
import { UsageError } from "../../src/lib/errors.ts";
import { printDoc, printLines } from "../../src/lib/output.ts";
import { rehearse } from "../../src/ops-repo/rehearsal/rehearsal.ts";
import { commandTemplate, TEMPLATE_ARG } from "../../src/ops-repo/template/source.ts";

const NAME = "onboarding-rehearsal";

function dir(cwd: string, p: string, flag: string): string {
  const abs = resolve(cwd, p);
  try {
    if (statSync(abs).isDirectory()) return abs;
  } catch {
    /* below */
  }
  throw new UsageError(`--${flag} is not a directory: ${abs}`, NAME);
}

export default defineCommand({
  meta: {
    name: NAME,
    description: [
      "Read-only postcondition table for a founded workspace: P01 router == stage files, P02 no unresolved",
      "placeholder, P03 ops CLAUDE.md == AGENTS.md, P04 workspace card deployed, P05 workspace descriptor valid",
      "for this root, P06 master_host_runtime set, P07 role-state.md, P08 MASTER-LINEAGE.md; L01 one terminal in",
      "the recorded master seat (--live), L02 boot smoke (always GAP). Each row PASS, FAIL or GAP.",
    ].join("\n"),
  },
  usage: [`${NAME} --workspace-root <path> --ops <path> [--live] [--orca-cli <exe>] [--template <path>]`, "  [--descriptor <path>] [--instance-config <path>] [--json]"],
  args: {
    "workspace-root": { type: "string", valueHint: "path", required: true, description: "The folder workspace root (absolute)" },
    ops: { ...ARGS.ops, alias: "ops-repo", required: true, description: "The ops repository (--ops-repo is the older name, still accepted)" },
    live: { type: "boolean", description: "Also measure L01 against the running Orca host" },
    "orca-cli": { type: "string", valueHint: "exe", description: "Orca executable for --live (default: ORCA_CLI_COMMAND, then orca)" },
    template: { ...TEMPLATE_ARG, description: "Template whose router P01 checks (default: embedded)" },
    descriptor: { type: "string", valueHint: "path", description: "Workspace descriptor (default $WORKSPACE_DESCRIPTOR, $MOGUI_WORKSPACE_DESCRIPTOR, else $MOGUI_HOME/config/workspace-descriptor.json)" },
    "instance-config": { type: "string", valueHint: "path", description: "Instance runtime config (default $INSTANCE_RUNTIME_CONFIG, else $MOGUI_HOME/config/instance-runtime.json)" },
    json: { ...ARGS.json, description: "One compact JSON document {failures, gaps, ops_repo, results, workspace_root} (keys sorted)" },
  },
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "every row PASS (needs --live; L02 is always GAP, so in practice read failures/gaps)" },
    notAllPass: { code: 1, meaning: "at least one row FAIL or GAP" },
    unreadable: { code: 2, meaning: "usage: a root is not a directory; template unreadable" },
  },
  notes: ["Exit 0 only when every row is PASS, so a run without --live (L01 GAP) and L02 (always GAP) exits 1; read failures/gaps."],
  examples: [`mogui ${NAME} --workspace-root /work/acme --ops /work/acme/acme-ops --json`],
  async run({ ctx, args, fail }) {
    const root = dir(ctx.cwd, args["workspace-root"], "workspace-root");
    const ops = dir(ctx.cwd, args.ops, "ops");
    const template = await commandTemplate(ctx.cwd, args.template, (m) => fail("unreadable", `${NAME}: ${m}`));
    const orcaCli = args["orca-cli"];
    const runCtx = orcaCli ? { ...ctx, env: { ...ctx.env, ORCA_CLI_COMMAND: orcaCli } } : ctx;
    const rows = await rehearse(runCtx, {
      root,
      ops,
      template,
      descriptorPath: descriptorPath(ctx, args.descriptor),
      instancePath: resolveStatePath(ctx, args["instance-config"], INSTANCE_CONFIG_ENV, INSTANCE_CONFIG_FILE),
      live: args.live,
    });
    const failures = rows.filter((r) => r.status === "FAIL").length;
    const gaps = rows.filter((r) => r.status === "GAP").length;
    if (args.json) printDoc(ctx, { workspace_root: root, ops_repo: ops, results: rows, failures, gaps }, true);
    else {
      printLines(ctx, [...rows.map((r) => `${r.id} ${r.status.padEnd(4)} ${r.expected}: ${r.observed} [${r.evidence}]`), `summary: ${rows.length - failures - gaps} PASS, ${failures} FAIL, ${gaps} GAP`]);
    }
    return failures === 0 && gaps === 0 ? "ok" : "notAllPass";
  },
});

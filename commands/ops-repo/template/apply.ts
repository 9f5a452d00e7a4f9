import { statSync } from "node:fs";
import { resolve } from "node:path";
import { ARGS } from "../../../src/lib/args.ts";
import { defineCommand, failWith } from "../../../src/lib/command.ts";
import type { Ctx } from "../../../src/lib/context.ts";
import { logger } from "../../../src/lib/log.ts";
import { errnoCode, errorMessage, UsageError } from "../../../src/lib/errors.ts";
import { printDoc, printLines, sortedJson } from "../../../src/lib/output.ts";
import { ApplySetupError, planApply, unfilledPlaceholders, writePlan, type Plan, type Unfilled } from "../../../src/ops-repo/template/apply.ts";
import { readStdinLine } from "../../../src/ops-repo/template/confirm.ts";
import { isPlaceholder, PLACEHOLDERS, type Placeholder } from "../../../src/ops-repo/template/paths.ts";
import { commandTemplate, TEMPLATE_ARG } from "../../../src/ops-repo/template/source.ts";

const NAME = "template apply";

const EXITS = {
  ok: { code: 0, meaning: "plan printed (dry run) or every planned file written" },
  refused: { code: 1, meaning: "the plan has error-* entries (nothing written), --write would leave {{PLACEHOLDER}} tokens unfilled without --allow-unfilled (nothing written), or an --attempt path was refused" },
  aborted: { code: 2, meaning: "usage (unknown or malformed --placeholder); ops not a directory; overlapping roots; template, manifest or TEMPLATE-VERSION unreadable (invalid UTF-8 included); confirmation declined; write aborted" },
} as const;

const aborted = (msg: string): never => failWith(EXITS, "aborted", `${NAME}: ${msg}`);

function placeholders(raw: readonly string[]): Partial<Record<Placeholder, string>> {
  const out: Partial<Record<Placeholder, string>> = {};
  for (const kv of raw) {
    const eq = kv.indexOf("=");
    if (eq <= 0) throw new UsageError(`--placeholder must be KEY=VALUE (got '${kv}')`, NAME);
    const key = kv.slice(0, eq).replace(/^\{\{(.*)\}\}$/, "$1");
    if (!isPlaceholder(key)) throw new UsageError(`unknown placeholder '${key}' (known: ${PLACEHOLDERS.join(", ")})`, NAME);
    out[key] = kv.slice(eq + 1);
  }
  return out;
}

function renderPlan(plan: Plan): string[] {
  return [`dry-run plan (no writes):`, `entries: ${plan.entries.length}`, ...plan.entries.map((e) => `  ${e.action}: ${e.path} — ${e.reason}`)];
}

function renderUnfilled(list: Unfilled[]): string {
  return list.map((u) => `  ${u.path}: ${u.token}`).join("\n");
}

async function confirmed(ctx: Ctx, yes: boolean, input: string | undefined): Promise<boolean> {
  if (yes) return true;
  if (input !== undefined) return input.trim() === "apply";
  // A prompt (no newline; the answer follows on the same line), not a diagnostic.
  ctx.io.stderr(`Type 'apply' to write these files into the ops repository: `);
  const line = await readStdinLine();
  return line !== null && line.trim() === "apply";
}

export default defineCommand({
  meta: {
    name: NAME,
    description: [
      "Install or upgrade an ops repository from the template (the one embedded in this binary unless",
      "--template names another). Without --write it prints the plan and writes nothing. With --write it asks",
      "you to type 'apply' (or takes --yes), then writes every planned file atomically, substituting placeholders",
      "and keeping an existing file's mode. Instance-owned paths are never overwritten (a missing one is seeded).",
    ].join("\n"),
  },
  usage: [`${NAME} --ops <path> [--template <path>] [--placeholder KEY=VALUE]... [--write [--yes] [--allow-unfilled]] [--json]`],
  args: {
    ops: { ...ARGS.ops, alias: "ops-repo", required: true, description: "The ops repository (an existing directory; --ops-repo is an alias)" },
    template: TEMPLATE_ARG,
    placeholder: { type: "string", valueHint: "KEY=VALUE", multiple: true, description: `Substitute {{KEY}}; keys: ${PLACEHOLDERS.join(", ")}` },
    write: { type: "boolean", description: "Write the planned files (after the typed confirmation)" },
    yes: { type: "boolean", description: "Skip the typed confirmation (for scripts)" },
    "allow-unfilled": { type: "boolean", description: "Write even when {{PLACEHOLDER}} tokens would be left unfilled (they are still listed)" },
    json: { ...ARGS.json, description: "Compact JSON output, keys sorted (with --write the plan goes to stderr)" },
    attempt: { type: "string", multiple: true, hidden: true, description: "test hook: also plan this path" },
    "confirm-input": { type: "string", hidden: true, description: "test hook: the confirmation text" },
  },
  mcp: { readOnly: false, destructive: true, idempotent: false, openWorld: false, confirmWith: { remove: "write" }, actWith: ["yes"] },
  exits: EXITS,
  notes: [
    [
      "OPS_REPO defaults to the --ops path and TEMPLATE_VERSION to the template's own version; the others",
      "(WORKSPACE_NAME, WORKSPACE_ROOT, MONITOR_NS, MODEL_ID, REPO_LIST, RUNTIME_ROOT) have no default. A token a",
      "written file would still hold is listed ('<path>: {{NAME}}' on stderr): with --write that is exit 1 and nothing",
      "is written, unless --allow-unfilled. Exit 1 also when the plan has error-* entries (nothing is written).",
    ].join("\n"),
  ],
  examples: [`mogui ${NAME} --ops ~/work/acme-ops`, `mogui ${NAME} --ops ~/work/acme-ops --placeholder WORKSPACE_NAME=acme --placeholder OPS_REPO=/w/acme-ops --write`],
  async run({ ctx, args }) {
    const ops = resolve(ctx.cwd, args.ops);
    const values = placeholders(args.placeholder);
    try {
      if (!statSync(ops).isDirectory()) throw new Error("not a directory");
    } catch {
      return aborted(`ops root is not a directory: ${ops}`);
    }
    const src = await commandTemplate(ctx.cwd, args.template, aborted);
    let plan: Plan;
    try {
      plan = planApply(ops, src, args.attempt);
    } catch (e) {
      if (e instanceof ApplySetupError) return aborted(e.message);
      throw e;
    }
    values.TEMPLATE_VERSION ??= plan.templateVersion;
    values.OPS_REPO ??= ops;
    const unfilled = unfilledPlaceholders(src, plan, values);
    const doc = { phase: "dry-run", actions: plan.entries };
    const hasErrors = plan.entries.some((e) => e.action.startsWith("error-"));
    const refused = plan.entries.some((e) => e.action === "refused-not-in-manifest");
    if (!args.write || hasErrors) {
      if (args.json) printDoc(ctx, doc, true);
      else printLines(ctx, renderPlan(plan));
      if (hasErrors && args.write) logger(ctx, NAME).log("the plan has errors; nothing written");
      if (unfilled.length) logger(ctx, NAME).log(`${unfilled.length} placeholder(s) would stay unfilled (pass --placeholder NAME=VALUE):\n${renderUnfilled(unfilled)}`);
      return hasErrors || refused ? "refused" : "ok";
    }
    logger(ctx, "").log(args.json ? sortedJson(doc) : renderPlan(plan).join("\n"));
    if (unfilled.length && !args["allow-unfilled"]) {
      logger(ctx, NAME).log(`${unfilled.length} placeholder(s) would stay unfilled; nothing written (pass --placeholder NAME=VALUE, or --allow-unfilled):\n${renderUnfilled(unfilled)}`);
      return "refused";
    }
    if (!(await confirmed(ctx, args.yes, args["confirm-input"]))) return aborted("confirmation declined; no writes");
    let written;
    try {
      written = writePlan(ops, src, plan, values);
    } catch (e) {
      if (e instanceof ApplySetupError) return aborted(e.message);
      return aborted(`write aborted: ${errnoCode(e) ?? errorMessage(e)}`);
    }
    if (args.json) printDoc(ctx, { phase: "write", actions: written }, true);
    else printLines(ctx, ["write results:", ...written.map((w) => `  ${w.action}: ${w.path} — ${w.reason}`)]);
    if (unfilled.length) logger(ctx, NAME).warn(`${unfilled.length} placeholder(s) left unfilled (--allow-unfilled):\n${renderUnfilled(unfilled)}`);
    return refused ? "refused" : "ok";
  },
});

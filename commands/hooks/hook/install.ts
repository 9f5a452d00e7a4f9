import { join, resolve } from "node:path";
import { ARGS } from "../../../src/lib/args.ts";
import { defineCommand } from "../../../src/lib/command.ts";
import { logger } from "../../../src/lib/log.ts";
import { printDoc, printLines } from "../../../src/lib/output.ts";
import { mergeWiring, readSettings, SettingsError, writeSettings } from "../../../src/hooks/session/install.ts";
import { mergeLayers, ProductPathError, productPaths } from "../../../src/hooks/sandbox/layers.ts";
import { InstanceConfigError, loadInstanceConfig, productRepoProblem } from "../../../src/lib/config/instance.ts";

export default defineCommand({
  meta: {
    name: "hook install",
    description: [
      "Wire mogui's hooks into a host's settings JSON: product-path-guard, bash-poll-warn and",
      "bash-output-trim-warn on PreToolUse; role-state-inject and orch-inbox-warn on UserPromptSubmit;",
      "role-state-inject, tracker-check and compaction-probe (matcher 'compact') on SessionStart.",
      "The file is merged, never clobbered: other keys and other hooks stay as they are, and a hook that",
      "is already wired is left alone (its command is updated when the mogui binary moved).",
      "It also turns on the other two layers that keep the master out of the product (DECISIONS D39): Claude",
      "Code's OS sandbox for Bash (sandbox.enabled, failIfUnavailable true, allowUnsandboxedCommands false, each",
      "product path in sandbox.filesystem.denyWrite) and a permission deny rule Edit(//<product>/**) for the file",
      "tools. A second run changes nothing (the file is not rewritten).",
    ].join("\n"),
  },
  usage: ["hook install --host claude [--product <path>...] [--settings <path>] [--bin <path>] [--dry-run] [--json]"],
  args: {
    host: { type: "enum", options: ["claude"], valueHint: "claude", description: "The host whose settings to edit (only claude today)", required: true },
    product: { type: "string", multiple: true, valueHint: "path", description: "A product checkout to protect; repeatable (default: product_repo of the instance config)" },
    settings: { type: "string", valueHint: "path", description: "Settings file (default ./.claude/settings.json, the project's settings)" },
    bin: { type: "string", valueHint: "path", description: "The mogui executable the hooks call (default: this binary)" },
    "dry-run": { ...ARGS.dryRun, description: "Print the merged settings on stdout; write nothing" },
    json: { ...ARGS.json, description: "Print {settings_path, dry_run, products, changes:[{event, hook, change}], settings:[{setting, value, change}]}" },
  },
  notes: [
    "The settings file is written through a temp file and a rename; a symlinked settings file is refused.",
    "Product paths are absolute in Claude Code's spelling (//abs/path); a symlinked product is denied under both names.",
    "'mogui hook doctor' reports which layers are active.",
  ],
  examples: ["mogui hook install --host claude --product ~/code/product", "mogui hook install --host claude --settings ~/.claude/settings.json --dry-run"],
  mcp: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "wiring merged (or printed with --dry-run); unchanged hooks are reported as such" },
    badSettings: { code: 2, meaning: "the settings file is not valid JSON, not an object, a symlink, or cannot be written (nothing changed)" },
    noProduct: { code: 2, meaning: "no product path: none given or configured, the example placeholder, or a path that does not exist (nothing written)" },
    usage: { code: 2, meaning: "usage error (unknown flag, no or an unknown --host)" },
  },
  async run({ ctx, args, fail }) {
    const path = resolve(ctx.cwd, args.settings ?? join(".claude", "settings.json"));
    const prefix = args.bin ? [resolve(ctx.cwd, args.bin)] : ctx.self;
    let given = args.product;
    if (given.length === 0) {
      let cfg;
      try {
        cfg = loadInstanceConfig(ctx);
      } catch (e) {
        if (e instanceof InstanceConfigError) return fail("noProduct", `hook install: ${e.message}; nothing was written`);
        throw e;
      }
      if (!cfg.productRepo) return fail("noProduct", `hook install: no product path: pass --product <path>, or set product_repo in ${cfg.configPath} (or MOGUI_PRODUCT_REPO); nothing was written`);
      given = [cfg.productRepo];
    }
    for (const g of given) {
      const problem = productRepoProblem(resolve(ctx.cwd, g));
      if (problem) return fail("noProduct", `hook install: ${problem}; nothing was written`);
    }
    let products: string[];
    try {
      products = productPaths(given, ctx.cwd);
    } catch (e) {
      if (e instanceof ProductPathError) return fail("noProduct", `hook install: ${e.message}; nothing was written`);
      throw e;
    }
    let result;
    let layers;
    try {
      result = mergeWiring(readSettings(path), prefix);
      layers = mergeLayers(result.settings, products);
      const changed = [...result.changes, ...layers].some((c) => c.change !== "unchanged");
      if (!args["dry-run"] && changed) writeSettings(path, result.settings);
    } catch (e) {
      if (e instanceof SettingsError) return fail("badSettings", `hook install: ${e.message}`);
      throw e;
    }
    if (args.json) {
      printDoc(ctx, { settings_path: path, dry_run: args["dry-run"], products, changes: result.changes, settings: layers }, true);
      return "ok";
    }
    const layerLine = (c: (typeof layers)[number]) => `${c.setting} ${JSON.stringify(c.value)}`;
    if (args["dry-run"]) {
      // The merged settings, keys sorted (the file itself keeps its own key order).
      printDoc(ctx, result.settings, false);
      for (const c of result.changes) logger(ctx, "").log(`${c.change === "unchanged" ? "unchanged" : `would be ${c.change}`}: ${c.event} ${c.hook}`);
      for (const c of layers) logger(ctx, "").log(`${c.change === "unchanged" ? "unchanged" : `would be ${c.change}`}: ${layerLine(c)}`);
      return "ok";
    }
    printLines(ctx, [...result.changes.map((c) => `${c.change}: ${c.event} ${c.hook}`), ...layers.map((c) => `${c.change}: ${layerLine(c)}`), `settings: ${path}`]);
    return "ok";
  },
});

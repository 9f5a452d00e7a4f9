import { join, resolve } from "node:path";
import { ARGS } from "../../../src/lib/args.ts";
import { defineCommand } from "../../../src/lib/command.ts";
import { printDoc, printLines } from "../../../src/lib/output.ts";
import { mergeWiring, readSettings, SettingsError, writeSettings } from "../../../src/hooks/session/install.ts";

export default defineCommand({
  meta: {
    name: "hook install",
    description: [
      "Wire mogui's hooks into a host's settings JSON: product-path-guard, bash-poll-warn and",
      "bash-output-trim-warn on PreToolUse; role-state-inject and orch-inbox-warn on UserPromptSubmit;",
      "role-state-inject, tracker-check and compaction-probe (matcher 'compact') on SessionStart.",
      "The file is merged, never clobbered: other keys and other hooks stay as they are, and a hook that",
      "is already wired is left alone (its command is updated when the mogui binary moved).",
    ].join("\n"),
  },
  usage: ["hook install --host claude [--settings <path>] [--bin <path>] [--dry-run] [--json]"],
  args: {
    host: { type: "enum", options: ["claude"], valueHint: "claude", description: "The host whose settings to edit (only claude today)", required: true },
    settings: { type: "string", valueHint: "path", description: "Settings file (default ./.claude/settings.json, the project's settings)" },
    bin: { type: "string", valueHint: "path", description: "The mogui executable the hooks call (default: this binary)" },
    "dry-run": { ...ARGS.dryRun, description: "Print the merged settings on stdout; write nothing" },
    json: { ...ARGS.json, description: "Print {settings_path, dry_run, changes:[{event, hook, change}]}" },
  },
  notes: ["The settings file is written through a temp file and a rename; a symlinked settings file is refused."],
  examples: ["mogui hook install --host claude", "mogui hook install --host claude --settings ~/.claude/settings.json --dry-run"],
  mcp: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "wiring merged (or printed with --dry-run); unchanged hooks are reported as such" },
    badSettings: { code: 2, meaning: "the settings file is not valid JSON, not an object, a symlink, or cannot be written (nothing changed)" },
    usage: { code: 2, meaning: "usage error (unknown flag, no or an unknown --host)" },
  },
  async run({ ctx, args, fail }) {
    const path = resolve(ctx.cwd, args.settings ?? join(".claude", "settings.json"));
    const prefix = args.bin ? [resolve(ctx.cwd, args.bin)] : ctx.self;
    let result;
    try {
      result = mergeWiring(readSettings(path), prefix);
      if (!args["dry-run"]) writeSettings(path, result.settings);
    } catch (e) {
      if (e instanceof SettingsError) return fail("badSettings", `hook install: ${e.message}`);
      throw e;
    }
    if (args.json) {
      printDoc(ctx, { settings_path: path, dry_run: args["dry-run"], changes: result.changes }, true);
      return "ok";
    }
    if (args["dry-run"]) {
      // The merged settings, keys sorted (the file itself keeps its own key order).
      printDoc(ctx, result.settings, false);
      for (const c of result.changes) ctx.io.stderr(`${c.change === "unchanged" ? "unchanged" : `would be ${c.change}`}: ${c.event} ${c.hook}\n`);
      return "ok";
    }
    printLines(ctx, [...result.changes.map((c) => `${c.change}: ${c.event} ${c.hook}`), `settings: ${path}`]);
    return "ok";
  },
});

import { join, resolve } from "node:path";
import { defineMoguiCommand } from "../../../src/lib/command.ts";
import { ExitError } from "../../../src/lib/errors.ts";
import { printJson, printLines, sortKeys } from "../../../src/lib/output.ts";
import { mergeWiring, readSettings, SettingsError, writeSettings } from "../../../src/hooks/session/install.ts";

export default defineMoguiCommand({
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
    "dry-run": { type: "boolean", description: "Print the merged settings on stdout; write nothing" },
    json: { type: "boolean", description: "Print {settings_path, dry_run, changes:[{event, hook, change}]}" },
  },
  notes: ["The settings file is written through a temp file and a rename; a symlinked settings file is refused."],
  examples: ["mogui hook install --host claude", "mogui hook install --host claude --settings ~/.claude/settings.json --dry-run"],
  async run(ctx, args) {
    const path = resolve(ctx.cwd, (args.settings as string | undefined) ?? join(".claude", "settings.json"));
    const prefix = args.bin ? [resolve(ctx.cwd, args.bin as string)] : ctx.self;
    let result;
    try {
      result = mergeWiring(readSettings(path), prefix);
      if (!args["dry-run"]) writeSettings(path, result.settings);
    } catch (e) {
      if (e instanceof SettingsError) throw new ExitError(2, `hook install: ${e.message}`);
      throw e;
    }
    if (args.json) {
      printJson(ctx, sortKeys({ settings_path: path, dry_run: Boolean(args["dry-run"]), changes: result.changes }), true);
      return 0;
    }
    if (args["dry-run"]) {
      ctx.io.stdout(`${JSON.stringify(result.settings, null, 2)}\n`);
      for (const c of result.changes) ctx.io.stderr(`${c.change === "unchanged" ? "unchanged" : `would be ${c.change}`}: ${c.event} ${c.hook}\n`);
      return 0;
    }
    printLines(ctx, [...result.changes.map((c) => `${c.change}: ${c.event} ${c.hook}`), `settings: ${path}`]);
    return 0;
  },
});

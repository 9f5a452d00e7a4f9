import { ARGS } from "../../../src/lib/args.ts";
import { defineCommand } from "../../../src/lib/command.ts";
import { printDoc, printLines } from "../../../src/lib/output.ts";
import { defaultSettingsPath, doctor, renderDoctor } from "../../../src/hooks/sandbox/doctor.ts";
import { SettingsError } from "../../../src/hooks/session/install.ts";

export default defineCommand({
  meta: {
    name: "hook doctor",
    description: [
      "Report which of the three layers that keep the master out of the product a Claude Code settings file turns",
      "on (DECISIONS D39): 1. Claude Code's OS sandbox (enabled, failIfUnavailable, unsandboxed fallback off, the",
      "product in sandbox.filesystem.denyWrite, bubblewrap (present and working) and socat on Linux); 2. the deny rule",
      "Edit(//<product>/**); 3. the product-path-guard hook. Protected means layer 1 is active.",
    ].join("\n"),
  },
  usage: ["hook doctor [--settings <path>] [--product <path>...] [--json]"],
  args: {
    settings: { type: "string", valueHint: "path", description: "Read this settings file alone (default: every file Claude Code merges: managed, ./.claude/settings.local.json, ./.claude/settings.json, ~/.claude/settings.json)" },
    product: { type: "string", multiple: true, valueHint: "path", description: "The product to check; repeatable (default: product_repo of the instance config)" },
    json: { ...ARGS.json, description: "Print {settings_path, settings_read, products, product_problem, protected, layers:[{layer, name, active, checks}]}" },
  },
  notes: ["Without --settings the scopes are merged as Claude Code merges them: the highest scope that sets a sandbox switch wins, the deny lists and hooks add up."],
  examples: ["mogui hook doctor", "mogui hook doctor --settings ~/.claude/settings.json --json"],
  exits: {
    ok: { code: 0, meaning: "protected: layer 1 (Claude Code's sandbox with the product denied) is active" },
    unprotected: { code: 1, meaning: "layer 1 is not active (the report says what is missing)" },
    badSettings: { code: 2, meaning: "the settings file is not valid JSON, not an object, or a symlink" },
  },
  async run({ ctx, args, fail }) {
    let r;
    try {
      r = await doctor(ctx, args.settings === undefined ? undefined : defaultSettingsPath(ctx, args.settings), args.product);
    } catch (e) {
      if (e instanceof SettingsError) return fail("badSettings", `hook doctor: ${e.message}`);
      throw e;
    }
    if (args.json) printDoc(ctx, r, true);
    else printLines(ctx, renderDoctor(r));
    return r.protected ? "ok" : "unprotected";
  },
});

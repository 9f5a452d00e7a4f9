/** `mogui config init`: every instance config example into $MOGUI_HOME/config/, never over an existing file. */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { EXAMPLES, writeInstanceExamples, type InitResult } from "../../../src/evidence/config/examples.ts";
import { ARGS } from "../../../src/lib/args.ts";
import { defineCommand } from "../../../src/lib/command.ts";
import { moguiHome } from "../../../src/lib/context.ts";
import { errnoCode, errorMessage } from "../../../src/lib/errors.ts";
import { logger } from "../../../src/lib/log.ts";
import { printDoc, printLines } from "../../../src/lib/output.ts";

const FILES = EXAMPLES.filter((e) => e.configFile).map((e) => `${e.configFile} (${e.what})`);

export default defineCommand({
  meta: {
    name: "config init",
    description: [
      "Write the example of every instance config file into $MOGUI_HOME/config/ (default ~/.mogui/config/), so a",
      "downloaded binary alone can run the worker, gate and descriptor commands. A file that already exists is",
      "never overwritten: it is listed as kept. Edit the written files for your workspace afterwards.",
    ].join("\n"),
  },
  usage: ["config init [--json]"],
  args: {
    json: { ...ARGS.json, description: "One compact JSON document {dir, kept, written}" },
  },
  mcp: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "every instance file written, or kept because it already existed (both listed)" },
    usage: { code: 2, meaning: "usage error, or $MOGUI_HOME/config cannot be created or written" },
  },
  notes: [`Files:\n${FILES.map((f) => `  ${f}`).join("\n")}`, "One example at a time, and the brief template and pre-push hook: mogui config example <name>."],
  examples: ["mogui config init", "MOGUI_HOME=/tmp/try mogui config init --json"],
  async run({ ctx, args, fail }) {
    const dir = join(moguiHome(ctx), "config");
    let r: InitResult;
    try {
      mkdirSync(dir, { recursive: true });
      r = writeInstanceExamples(dir);
    } catch (e) {
      return fail("usage", `config init: cannot write into ${dir}: ${errnoCode(e) ?? errorMessage(e)}`);
    }
    if (args.json) printDoc(ctx, { dir, written: r.written, kept: r.kept }, true);
    else printLines(ctx, [...r.written.map((p) => `wrote ${p}`), ...r.kept.map((p) => `kept ${p} (exists; left unchanged)`)]);
    if (r.written.length) logger(ctx, "config init").log("edit the written files for your workspace (mogui config validate <name> checks one)");
    return "ok";
  },
});

/** `mogui config example <name> [--out <path>]`: one file the binary carries (instance examples, brief template, hook). */
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { exampleNames, findExample, writeExample } from "../../../src/evidence/config/examples.ts";
import { defineCommand } from "../../../src/lib/command.ts";
import { errnoCode, errorMessage, UsageError } from "../../../src/lib/errors.ts";

export default defineCommand({
  meta: {
    name: "config example",
    description: ["Print one file the binary carries: an instance config example (what `config init` writes), the worker brief", "template, or the git pre-push hook. --out writes it instead (the hook executable), never over an existing file."].join("\n"),
  },
  usage: ["config example <name> [--out <path>]"],
  args: {
    name: { type: "positional", required: true, description: `One of: ${exampleNames().join(", ")}` },
    out: { type: "string", valueHint: "path", description: "Write the file here instead of printing it, parent directories included (refused when the path exists)" },
  },
  mcp: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "the file was printed (or written with --out)" },
    exists: { code: 1, meaning: "--out names a path that exists; left unchanged" },
    usage: { code: 2, meaning: "usage error: unknown name; --out cannot be written" },
  },
  examples: ["mogui config example worker-surface-policy", 'mogui config example brief-template > "$MOGUI_HOME/brief.md"', "mogui config example pre-push --out .git/hooks/pre-push"],
  async run({ ctx, args, fail }) {
    const e = findExample(args.name);
    if (!e) throw new UsageError(`unknown example '${args.name}': expected one of ${exampleNames().join(", ")}`, "config example");
    if (args.out === undefined) {
      ctx.io.stdout(e.text);
      return "ok";
    }
    const path = resolve(ctx.cwd, args.out);
    let wrote: boolean;
    try {
      mkdirSync(dirname(path), { recursive: true });
      wrote = writeExample(e, path);
    } catch (err) {
      return fail("usage", `config example: cannot write ${path}: ${errnoCode(err) ?? errorMessage(err)}`);
    }
    if (!wrote) return fail("exists", `config example: ${path} exists; left unchanged`);
    ctx.io.stdout(`wrote ${path}\n`);
    return "ok";
  },
});

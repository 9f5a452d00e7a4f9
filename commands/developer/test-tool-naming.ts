import { resolve } from "node:path";
import { ARGS } from "../../src/lib/args.ts";
import { defineCommand } from "../../src/lib/command.ts";
import { logger } from "../../src/lib/log.ts";
import { printDoc, printLines } from "../../src/lib/output.ts";
import { scanTree, selfTest } from "../../src/developer/tool-naming/tool-naming.ts";

export default defineCommand({
  meta: {
    name: "test-tool-naming",
    description: ["Lint docs/ and skills/ for retired tool spellings: ctx.search, ctx.sql, ctx.show_event,", "ctx.show_session, ctx.status, ctx.sources. Prints path:line: name per finding."].join("\n"),
  },
  usage: ["test-tool-naming [--root <path>] [--self-test] [--json]"],
  args: {
    root: { type: "string", valueHint: "path", default: ".", description: "Repository root holding docs/ and skills/ (relative to the cwd)" },
    "self-test": { type: "boolean", description: "Check the detector itself against known hits and look-alikes" },
    json: { ...ARGS.json, description: "Print {root, scanned, findings:[{path, line, name}]}" },
  },
  exits: {
    ok: { code: 0, meaning: "no retired tool name (or --self-test passed)" },
    findings: { code: 1, meaning: "findings: path:line: name per line" },
    usage: { code: 2, meaning: "usage error, or --self-test failed" },
  },
  examples: ["mogui test-tool-naming", "mogui test-tool-naming --self-test"],
  async run({ ctx, args }) {
    if (args["self-test"]) {
      const failures = selfTest();
      for (const f of failures) logger(ctx, "test-tool-naming").log(`self-test: ${f}`);
      if (failures.length) return "usage";
      printLines(ctx, ["test-tool-naming: self-test passed"]);
      return "ok";
    }
    const root = resolve(ctx.cwd, args.root);
    const { findings, scanned } = scanTree(root, ["docs", "skills"]);
    if (args.json) printDoc(ctx, { findings, root, scanned }, true);
    else {
      printLines(
        ctx,
        findings.map((f) => `${f.path}:${f.line}: ${f.name}`),
      );
      logger(ctx, "test-tool-naming").log(`${findings.length} finding(s) in ${scanned} file(s)`);
    }
    return findings.length ? "findings" : "ok";
  },
});

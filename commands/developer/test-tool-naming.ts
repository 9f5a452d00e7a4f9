import { resolve } from "node:path";
import { defineMoguiCommand } from "../../src/lib/command.ts";
import { printJson, printLines, sortKeys } from "../../src/lib/output.ts";
import { scanTree, selfTest } from "../../src/hooks/ops/tool-naming.ts";

export default defineMoguiCommand({
  meta: {
    name: "test-tool-naming",
    description: [
      "Lint docs/ and skills/ for retired tool spellings: ctx.search, ctx.sql, ctx.show_event,",
      "ctx.show_session, ctx.status, ctx.sources. Prints path:line: name per finding.",
    ].join("\n"),
  },
  usage: ["test-tool-naming [--root <path>] [--self-test] [--json]"],
  args: {
    root: { type: "string", valueHint: "path", description: "Repository root holding docs/ and skills/ (default: cwd)" },
    "self-test": { type: "boolean", description: "Check the detector itself against known hits and look-alikes" },
    json: { type: "boolean", description: "Print {root, scanned, findings:[{path, line, name}]}" },
  },
  examples: ["mogui test-tool-naming", "mogui test-tool-naming --self-test"],
  async run(ctx, args) {
    if (args["self-test"]) {
      const failures = selfTest();
      for (const f of failures) ctx.io.stderr(`test-tool-naming: self-test: ${f}\n`);
      if (failures.length) return 2;
      printLines(ctx, ["test-tool-naming: self-test passed"]);
      return 0;
    }
    const root = resolve(ctx.cwd, (args.root as string | undefined) ?? ".");
    const { findings, scanned } = scanTree(root, ["docs", "skills"]);
    if (args.json) printJson(ctx, sortKeys({ findings, root, scanned }), true);
    else {
      printLines(ctx, findings.map((f) => `${f.path}:${f.line}: ${f.name}`));
      ctx.io.stderr(`test-tool-naming: ${findings.length} finding(s) in ${scanned} file(s)\n`);
    }
    return findings.length ? 1 : 0;
  },
});

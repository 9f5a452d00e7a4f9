import { defineCommand } from "../../../src/lib/command.ts";
import { printDoc, printLines } from "../../../src/lib/output.ts";
import { DenyPathError, detectMechanism, missingLine, resolveDenyPaths } from "../../../src/hooks/sandbox/mechanism.ts";
import { probe } from "../../../src/hooks/sandbox/run.ts";
import { ARGS } from "../../../src/lib/args.ts";

export default defineCommand({
  meta: {
    name: "sandbox check",
    description: [
      "Prove the sandbox mechanism on this host: a temp directory is bound read-only and a shell inside the",
      "sandbox tries to create a file in it. Says which mechanism is used (bubblewrap, sandbox-exec) and, for",
      "each --deny-write path, whether it is read-only inside the sandbox (asked with test -w; nothing is written).",
    ].join("\n"),
  },
  usage: ["sandbox check [--deny-write <path>...] [--json]"],
  args: {
    "deny-write": { type: "string", multiple: true, valueHint: "path", description: "Also check that this path is read-only inside the sandbox; repeatable" },
    json: { ...ARGS.json, description: "Print {mechanism, path, enforced, problem, paths:[{path, read_only}]}" },
  },
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "the probe write was refused: the mechanism works (and every --deny-write path is read-only)" },
    unavailable: { code: 2, meaning: "no mechanism, or it cannot create a sandbox here, or the probe write went through" },
    usage: { code: 2, meaning: "usage error (unknown flag, a --deny-write path that does not exist)" },
  },
  examples: ["mogui sandbox check", "mogui sandbox check --deny-write ~/code/product --json"],
  async run({ ctx, args, fail }) {
    let denied: string[];
    try {
      denied = resolveDenyPaths(args["deny-write"], ctx.cwd);
    } catch (e) {
      if (e instanceof DenyPathError) return fail("usage", `sandbox check: ${e.message}`);
      throw e;
    }
    const m = detectMechanism(process.platform, ctx.env.PATH, ctx.cwd);
    if (!m) {
      const problem = missingLine(process.platform);
      if (args.json) printDoc(ctx, { mechanism: null, path: null, enforced: false, problem, paths: [] }, true);
      return fail("unavailable", `sandbox check: ${problem}`);
    }
    const r = await probe(m, denied, ctx.env);
    const allReadOnly = r.paths.every((p) => p.read_only);
    if (args.json) printDoc(ctx, r, true);
    else {
      printLines(ctx, [
        `mechanism: ${r.mechanism} (${r.path})`,
        r.enforced ? "probe: a write into a read-only temp dir was refused: enforced" : `probe: NOT enforced: ${r.problem}`,
        ...r.paths.map((p) => `${p.read_only ? "read-only" : "WRITABLE"}: ${p.path}`),
      ]);
    }
    if (!r.enforced) return fail("unavailable", `sandbox check: ${r.problem}`);
    if (!allReadOnly)
      return fail(
        "unavailable",
        `sandbox check: ${r.paths
          .filter((p) => !p.read_only)
          .map((p) => p.path)
          .join(", ")} writable inside the sandbox`,
      );
    return "ok";
  },
});

import { resolve } from "node:path";
import { defineMoguiCommand } from "../src/lib/command.ts";
import type { Ctx } from "../src/lib/context.ts";
import { UsageError } from "../src/lib/errors.ts";
import { gitleaksVersion, runGitleaksScan } from "../src/redaction/gitleaks.ts";
import { compileRules } from "../src/redaction/engine.ts";
import { loadRules, ScanFail } from "../src/redaction/rules.ts";
import { readShardList, scanShard } from "../src/redaction/shard.ts";
import { printJson } from "../src/lib/output.ts";
import { findingLine, runNativeScan, type Progress, type ScanRequest } from "../src/redaction/scan.ts";
import { repoRoot, SourceError, type Mode } from "../src/redaction/sources.ts";
import { VERSION } from "../src/version.ts";

const P = "redaction-scan";

/** Progress on stderr once a scan has run for a second, then at most once a second. */
function progress(ctx: Ctx): Progress {
  const start = ctx.now();
  let last = start;
  let shown = false;
  return (done, total) => {
    const now = ctx.now();
    if (done === 0 || now - start < 1000 || (now - last < 1000 && done < total) || (done === total && !shown)) return;
    last = now;
    shown = true;
    const end = done === total ? "\n" : ctx.io.stderrIsTTY ? "\r" : "\n";
    ctx.io.stderr(`${P}: scanned ${done}/${total} files${end}`);
  };
}

function fail(ctx: Ctx, e: ScanFail | SourceError): number {
  ctx.io.stderr(`${P}: FAIL — ${e.message}\n`);
  if (e instanceof ScanFail) for (const l of e.extra) ctx.io.stderr(`${l}\n`);
  return 2;
}

/** One share of a parallel scan (see src/redaction/shard.ts): same rules as the parent, JSON on stdout. */
function shardChild(ctx: Ctx, args: Record<string, unknown>): number {
  try {
    const root = resolve(ctx.cwd, (args.dir as string | undefined) ?? ".");
    const rules = loadRules(ctx, root, { config: args.config as string | undefined, requireExtra: false, skipLegacyCheck: true }, () => {});
    const res = scanShard(compileRules(rules.set.rules, rules.set.allowlists), readShardList(args["shard-list"] as string));
    printJson(ctx, res, true);
    return 0;
  } catch (e) {
    ctx.io.stderr(`${P}: FAIL — ${e instanceof ScanFail || e instanceof SourceError ? e.message : `internal error (${(e as Error).name})`}\n`);
    return 2;
  }
}

function request(args: Record<string, unknown>, root: string): { req: ScanRequest; mode: Mode } {
  const range = args.range as string | undefined;
  if (range !== undefined && !range.includes("..")) throw new UsageError("--range requires A..B", P);
  const mode: Mode = args.paths ? "paths" : args.staged ? "staged" : range ? "range" : "tracked";
  const positionals = args._ as string[];
  if (mode !== "paths" && positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}' (paths need --paths)`, P);
  if (mode === "paths" && positionals.length === 0) throw new UsageError("--paths needs at least one path", P);
  return { mode, req: { mode, root, range, messageRange: args["commit-messages"] as string | undefined, paths: positionals } };
}

export default defineMoguiCommand({
  meta: {
    name: P,
    description: [
      "The fail-closed publish gate: scan the repository for secrets and private identifiers with the rules of",
      "config/gitleaks.toml plus the organisation rules file ($REDACTION_EXTRA_PATTERNS). Findings are printed",
      "masked; exit 1 means findings, exit 2 means the scan could not decide (and is never a pass).",
    ].join("\n"),
  },
  usage: [
    "redaction-scan [-C <dir>] [--staged | --range <A..B> | --paths <path>...] [--commit-messages <range>]",
    "               [--config <toml>] [--allowlist <file>] [--require-extra] [--engine mogui|gitleaks] [-v]",
  ],
  args: {
    dir: { type: "string", alias: "C", valueHint: "dir", description: "Scan the repository (or base directory) at <dir> instead of the current one" },
    staged: { type: "boolean", description: "Scan the files staged for commit (added, copied, modified, renamed)" },
    range: { type: "string", valueHint: "A..B", description: "Scan the files changed in A..B and the commit messages of A..B" },
    paths: { type: "boolean", description: "Scan the given files and directories (no git needed)" },
    "commit-messages": { type: "string", valueHint: "range", description: "Also scan the commit messages of <range> (any mode)" },
    config: { type: "string", valueHint: "toml", description: "Rules file (default $GITLEAKS_CONFIG, else <repo>/config/gitleaks.toml, else the built-in copy)" },
    allowlist: { type: "string", valueHint: "file", description: "Retired allowlist file that must stay empty (default $REDACTION_ALLOWLIST, else scripts/redaction-allowlist.txt)" },
    "require-extra": { type: "boolean", description: "Fail (exit 2) when no organisation rule loaded (also REDACTION_REQUIRE_EXTRA=1)" },
    engine: { type: "enum", options: ["mogui", "gitleaks"], valueHint: "engine", description: "Matching engine (default mogui; gitleaks must be on PATH)" },
    verbose: { type: "boolean", alias: "v", description: "Print the scan parameters first" },
    "shard-list": { type: "string", valueHint: "file", hidden: true, description: "Internal: scan this JSON file list and print one JSON result (a share of a parallel scan)" },
  },
  rules: { exclusive: [["staged", "range", "paths"]], variadic: true },
  notes: [
    "Every rule regex must be RE2 syntax: a rule with a lookaround or a backreference stops the scan (exit 2),\n" +
      "named by id only. Binary files are skipped; symlinks are scanned as their target string, never followed.\n" +
      "Exempt a reviewed finding with its fingerprint `<file>:<rule>:<line>` in .gitleaksignore.",
  ],
  examples: ["mogui redaction-scan", "mogui redaction-scan --range origin/main..HEAD", "mogui redaction-scan --paths docs/ README.md -v"],
  async run(ctx, args) {
    if (args["shard-list"]) return shardChild(ctx, args);
    const base = resolve(ctx.cwd, (args.dir as string | undefined) ?? ".");
    const gitRoot = await repoRoot(ctx, base);
    const { mode, req } = request(args, gitRoot ?? base);
    if (mode === "paths") req.root = base;
    const engine = (args.engine as string | undefined) ?? "mogui";
    try {
      if (!gitRoot && mode !== "paths") throw new ScanFail(`not a git repository: ${base}`);
      let engineName = `mogui ${VERSION}`;
      if (engine === "gitleaks") {
        const v = await gitleaksVersion(ctx);
        if (v === null) throw new ScanFail("gitleaks is not on PATH; install it (brew install gitleaks) or see https://gitleaks.io");
        engineName = `gitleaks ${v}`;
      }
      const requireExtra = Boolean(args["require-extra"]) || ctx.env.REDACTION_REQUIRE_EXTRA === "1";
      const warn = (m: string) => ctx.io.stderr(`${P}: WARNING — ${m}\n`);
      const rules = loadRules(ctx, gitRoot ?? base, { config: args.config as string | undefined, allowlist: args.allowlist as string | undefined, requireExtra }, warn);
      const run = engine === "gitleaks" ? runGitleaksScan : runNativeScan;
      const report = await run(ctx, rules, req, progress(ctx));
      const messages = report.commitMessages === null ? "not-scanned" : String(report.commitMessages);
      const org = rules.orgRules.length;
      if (args.verbose) {
        ctx.io.stdout(`${P}: mode=${mode} range=${req.range ?? "none"} files=${report.files} commit-messages=${messages} org-rules=${org} config=${rules.configName} engine=${engineName}\n`);
      }
      if (report.findings.length) {
        ctx.io.stderr(`${P}: FAIL — ${report.findings.length} finding(s) (fail-closed)\n`);
        ctx.io.stderr(`${report.findings.map(findingLine).join("\n")}\n`);
        ctx.io.stderr(`${P}: fix, or exempt with a .gitleaksignore fingerprint, then re-run.\n`);
        return 1;
      }
      ctx.io.stdout(`${P}: OK — 0 findings (mode=${mode}, files=${report.files}, commit-messages=${messages}, org-rules=${org})\n`);
      return 0;
    } catch (e) {
      if (e instanceof ScanFail || e instanceof SourceError) return fail(ctx, e);
      // Exit 1 means findings: an unexpected failure must never look like one, nor like a pass.
      ctx.io.stderr(`${P}: FAIL — internal error (${(e as Error).name}); the scan did not decide\n`);
      return 2;
    }
  },
});

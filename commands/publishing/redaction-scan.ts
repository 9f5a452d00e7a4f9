import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { ARGS, type ArgValues } from "../../src/lib/args.ts";
import { defineCommand } from "../../src/lib/command.ts";
import type { Ctx } from "../../src/lib/context.ts";
import { errnoCode, errorMessage, UsageError } from "../../src/lib/errors.ts";
import type { Exits } from "../../src/lib/exits.ts";
import { logger, progress as progressLine } from "../../src/lib/log.ts";
import { gitleaksVersion, runGitleaksScan } from "../../src/publishing/redaction/gitleaks.ts";
import { compileRules } from "../../src/publishing/redaction/engine.ts";
import { loadRules, ScanFail } from "../../src/publishing/redaction/rules.ts";
import { readShardList, scanShard } from "../../src/publishing/redaction/shard.ts";
import { printJson } from "../../src/lib/output.ts";
import { blindSpotLine, renderReport, textLines, type ReportFormat } from "../../src/publishing/redaction/report.ts";
import { DEFAULT_MAX_FINDINGS, findingLine, readBaseline, readIgnore, runNativeScan, type Progress, type ScanOptions, type ScanRequest } from "../../src/publishing/redaction/scan.ts";
import { repoRoot, SourceError, type Mode } from "../../src/publishing/redaction/sources.ts";
import { transcriptRequest } from "../../src/publishing/redaction/transcripts.ts";
import { VERSION } from "../../src/lib/version.ts";

const P = "redaction-scan";

/**
 * Progress on stderr once a scan has run for a second: on a TTY one updating line (progress() of src/lib/log.ts);
 * otherwise a plain line at most once a second and a last one at the end.
 */
function progress(ctx: Ctx): Progress {
  const start = ctx.now();
  let last = start;
  let shown = false;
  const tty = ctx.io.stderrIsTTY ? progressLine(ctx, P) : null;
  return (done, total) => {
    ctx.onProgress?.(done, total, "files");
    const now = ctx.now();
    if (done === 0 || now - start < 1000 || (now - last < (tty ? 100 : 1000) && done < total) || (done === total && !shown)) return;
    last = now;
    shown = true;
    if (tty) return done === total ? tty.end(`scanned ${done}/${total} files`) : tty.update(done, total, "files");
    logger(ctx, P).log(`scanned ${done}/${total} files`);
  };
}

function writeReport(path: string, text: string): void {
  try {
    writeFileSync(path, text);
  } catch (e) {
    throw new ScanFail(`cannot write the report ${path}: ${errnoCode(e) ?? errorMessage(e)}`);
  }
}

const SCAN_ARGS = {
  dir: { type: "string", alias: "C", valueHint: "dir", description: "Scan the repository (or base directory) at <dir> instead of the current one" },
  staged: { type: "boolean", description: "Scan the files staged for commit (added, copied, modified, renamed)" },
  range: { type: "string", valueHint: "A..B", description: "Scan the files changed in A..B and the commit messages of A..B" },
  paths: { type: "boolean", description: "Scan the given files and directories (no git needed)" },
  transcripts: { type: "boolean", description: "Scan the agents' transcript stores under $HOME (~/.claude/projects, ~/.codex/sessions; no git needed)" },
  agent: { type: "enum", options: ["claude", "codex", "all"], valueHint: "agent", description: "With --transcripts: whose stores (default all)" },
  json: { ...ARGS.json, description: "The JSON report on stdout (same as --report-format json)" },
  "commit-messages": { type: "string", valueHint: "range", description: "Also scan the commit messages of <range> (any mode)" },
  config: { type: "string", valueHint: "toml", description: "Rules file (default $GITLEAKS_CONFIG, else <repo>/config/gitleaks.toml, else the built-in copy)" },
  allowlist: { type: "string", valueHint: "file", description: "Retired allowlist file that must stay empty (default $REDACTION_ALLOWLIST, else scripts/redaction-allowlist.txt)" },
  "require-extra": { type: "boolean", description: "Fail (exit 2) when no organisation rule loaded (also REDACTION_REQUIRE_EXTRA=1)" },
  engine: { type: "enum", options: ["mogui", "gitleaks"], valueHint: "engine", description: "Matching engine (default mogui; gitleaks must be on PATH)" },
  verbose: { type: "boolean", alias: "v", description: "Print the scan parameters first" },
  "report-format": { type: "enum", options: ["text", "json", "sarif"], valueHint: "format", description: "Report format: text (default), json (one document) or sarif (SARIF 2.1.0 for code scanning)" },
  "report-path": { type: "string", valueHint: "file", description: "Write the report to <file> (default: json/sarif on stdout, text on stderr)" },
  baseline: { type: "string", valueHint: "report.json", description: "Suppress findings whose fingerprint is in this earlier JSON report" },
  "max-findings": { type: "int", min: 1, max: 10_000_000, default: DEFAULT_MAX_FINDINGS, valueHint: "n", description: "List at most n findings (default 1000); the rest are counted" },
  "max-decode-depth": { type: "int", min: 0, max: 4, default: 1, valueHint: "n", description: "How many times nested base64 is decoded and scanned (default 1; 0 = never)" },
  "shard-list": { type: "string", valueHint: "file", hidden: true, description: "Internal: scan this file list (NUL-separated) and print one JSON result (a share of a parallel scan)" },
  "shard-wait": { type: "boolean", hidden: true, description: "Internal: with --shard-list, load the rules, then wait for the end of standard input before reading the list" },
} as const;

type Args = ArgValues<typeof SCAN_ARGS>;

/** The exits of redaction-scan: 1 is findings, so every failure to decide is 2, never 1 (nor 0). */
export const REDACTION_SCAN_EXITS = {
  ok: { code: 0, meaning: "clean: 0 findings" },
  findings: { code: 1, meaning: "findings (printed masked on stderr; fail-closed)" },
  undecided: {
    code: 2,
    meaning:
      "cannot decide: bad usage, missing or invalid rules config, a rule RE2 rejects, retired allowlist entries, required org rules missing, unresolvable range, not a git repository, unreadable file, unreadable baseline, unwritable report path, internal error (--debug prints its stack), engine error, gitleaks missing with --engine gitleaks",
  },
} as const satisfies Exits;

type Outcome = keyof typeof REDACTION_SCAN_EXITS;

function fail(ctx: Ctx, e: ScanFail | SourceError): Outcome {
  logger(ctx, P).log(`FAIL — ${e.message}`);
  if (e instanceof ScanFail) for (const l of e.extra) logger(ctx, "").log(l);
  return "undecided";
}

/** One share of a parallel scan (see src/redaction/shard.ts): same rules and options as the parent, JSON on stdout. */
function shardChild(ctx: Ctx, args: Args, list: string): Outcome {
  try {
    const root = resolve(ctx.cwd, args.dir ?? ".");
    const rules = loadRules(ctx, root, { config: args.config, requireExtra: false, skipLegacyCheck: true }, () => {});
    const opts = scanOptions(args, root, ctx.cwd);
    const c = compileRules(rules.set.rules, rules.set.allowlists, { decodeDepth: opts.decodeDepth });
    // Started before its list was written (shard.ts, ShardPool): the parent closes our input once it is.
    if (args["shard-wait"]) readFileSync(0);
    printJson(ctx, scanShard(c, readShardList(list), opts), true);
    return "ok";
  } catch (e) {
    return failure(ctx, e);
  }
}

/** --max-findings, --max-decode-depth, --baseline and .gitleaksignore; the same in the parent and every share. */
function scanOptions(args: Args, root: string, cwd: string): ScanOptions {
  const budget = args["max-findings"];
  const decodeDepth = args["max-decode-depth"];
  const ignore = readIgnore(root);
  const childArgs = ["--max-findings", String(budget), "--max-decode-depth", String(decodeDepth)];
  const baseline = args.baseline === undefined ? undefined : resolve(cwd, args.baseline);
  if (baseline !== undefined) {
    for (const fp of readBaseline(baseline)) ignore.add(fp);
    childArgs.push("--baseline", baseline);
  }
  return { budget, ignore, decodeDepth, childArgs };
}

/** Exit 2 for every failure: a ScanFail or SourceError names what went wrong; anything else is an internal error. */
function failure(ctx: Ctx, e: unknown): Outcome {
  if (e instanceof ScanFail || e instanceof SourceError) return fail(ctx, e);
  if (e instanceof UsageError) throw e;
  // Exit 1 means findings: an unexpected failure must never look like one, nor like a pass.
  logger(ctx, P).log(`FAIL — internal error (${e instanceof Error ? e.name : typeof e}); the scan did not decide`);
  if (ctx.debug && e instanceof Error && e.stack) logger(ctx, "").log(e.stack);
  return "undecided";
}

function request(args: Args, root: string): { req: ScanRequest; mode: Mode } {
  if (args.agent !== undefined && !args.transcripts) throw new UsageError("--agent needs --transcripts", P);
  const range = args.range;
  if (range !== undefined && !range.includes("..")) throw new UsageError("--range requires A..B", P);
  const mode: Mode = args.paths || args.transcripts ? "paths" : args.staged ? "staged" : range ? "range" : "tracked";
  const positionals = args._;
  if (mode !== "paths" && positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}' (paths need --paths)`, P);
  if (mode === "paths" && !args.transcripts && positionals.length === 0) throw new UsageError("--paths needs at least one path", P);
  return { mode, req: { mode, root, range, messageRange: args["commit-messages"], paths: positionals } };
}

/** The sources a scan reads: one at most. */
const SOURCE_FLAGS = ["staged", "range", "paths", "transcripts"];

export default defineCommand({
  meta: {
    name: P,
    description: [
      "The fail-closed publish gate: scan the repository for secrets and private identifiers with the rules of",
      "config/gitleaks.toml plus the organisation rules file ($REDACTION_EXTRA_PATTERNS). Findings are printed",
      "masked; exit 1 means findings, exit 2 means the scan could not decide (and is never a pass).",
    ].join("\n"),
  },
  usage: [
    "redaction-scan [-C <dir>] [--staged | --range <A..B> | --paths <path>... | --transcripts [--agent claude|codex|all]]",
    "               [--commit-messages <range>] [--json]",
    "               [--config <toml>] [--allowlist <file>] [--require-extra] [--engine mogui|gitleaks] [-v]",
    "               [--report-format text|json|sarif] [--report-path <file>] [--baseline <report.json>]",
    "               [--max-findings <n>] [--max-decode-depth <n>]",
  ],
  args: SCAN_ARGS,
  rules: { exclusive: [SOURCE_FLAGS, ["json", "report-format"]], variadic: true },
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false, document: ["report-format", "json"] },
  exits: REDACTION_SCAN_EXITS,
  notes: [
    "Every rule regex must be RE2 syntax: a rule with a lookaround or a backreference stops the scan (exit 2),\n" +
      "named by id only. Binary files are skipped; symlinks are scanned as their target string, never followed.\n" +
      "Exempt a reviewed finding with its fingerprint in .gitleaksignore: `<file>:<rule>:<line>`, or the content\n" +
      "fingerprint `<file>:<rule>:<hash>:<n>` of the JSON report, which survives line moves (--baseline matches it).",
    "Decoded before matching: UTF-16 files with a byte-order mark, JSON string escapes (twice for JSON in JSON),\n" +
      "base64 runs of 20+ characters and percent-encoded runs (--max-decode-depth). Binary files are counted and\n" +
      "listed as blind spots. Context lines are printed with every secret-like run masked, found or not.\n" +
      "--transcripts scans ~/.claude/projects/**/*.jsonl and ~/.codex/sessions/**/*.jsonl (--agent narrows);\n" +
      "organisation rules: $REDACTION_EXTRA_PATTERNS, else ~/.config/redaction-extra.txt (as preflight).\n" +
      "Reports: --report-format json (findings sorted by file, line, rule; each with a fingerprint) or sarif, on\n" +
      "stdout or in --report-path; --baseline <report.json> suppresses the findings of an earlier JSON report.",
  ],
  examples: [
    "mogui redaction-scan",
    "mogui redaction-scan --range origin/main..HEAD",
    "mogui redaction-scan --paths docs/ README.md -v",
    "mogui redaction-scan --transcripts --agent claude --report-format sarif --report-path transcripts.sarif",
    "mogui redaction-scan --report-format sarif --report-path redaction.sarif",
    "mogui redaction-scan --baseline redaction-baseline.json",
  ],
  async run({ ctx, args }) {
    if (args["shard-list"]) return shardChild(ctx, args, args["shard-list"]);
    const base = resolve(ctx.cwd, args.dir ?? ".");
    const gitRoot = await repoRoot(ctx, base);
    const { mode, req } = request(args, gitRoot ?? base);
    if (mode === "paths") req.root = base;
    if (args.transcripts) {
      if (args._.length) throw new UsageError(`unexpected argument '${args._[0]}' (--transcripts finds its own files)`, P);
      if (!transcriptRequest(ctx, req, args.agent ?? "all", args.verbose, args.json)) return "ok";
    }
    const engine = args.engine ?? "mogui";
    try {
      if (!gitRoot && mode !== "paths" && !args.transcripts) throw new ScanFail(`not a git repository: ${base}`);
      let engineName = `mogui ${VERSION}`;
      if (engine === "gitleaks") {
        const v = await gitleaksVersion(ctx);
        if (v === null) throw new ScanFail("gitleaks is not on PATH; install it (brew install gitleaks) or see https://gitleaks.io");
        engineName = `gitleaks ${v}`;
      }
      const requireExtra = args["require-extra"] || ctx.env.REDACTION_REQUIRE_EXTRA === "1";
      const warn = (m: string) => logger(ctx, P).log(`WARNING — ${m}`);
      const rules = loadRules(ctx, gitRoot ?? base, { config: args.config, allowlist: args.allowlist, requireExtra }, warn);
      const opts = scanOptions(args, req.root, ctx.cwd);
      const format: ReportFormat = args.json ? "json" : (args["report-format"] ?? "text");
      const path = args["report-path"];
      // json/sarif without a path are the data on stdout; the verdict stays one line on stderr.
      const docOnStdout = path === undefined && format !== "text";
      // The text lines stream as files are scanned (the native engine); the verdict follows them.
      const stream = !docOnStdout && engine === "mogui";
      if (stream) opts.onFinding = (f) => logger(ctx, "").log(`${ctx.io.stderrIsTTY ? "\r\x1b[2K" : ""}${findingLine(f)}`);
      const run = engine === "gitleaks" ? runGitleaksScan : runNativeScan;
      const report = await run(ctx, rules, req, opts, progress(ctx));
      const messages = report.commitMessages === null ? "not-scanned" : String(report.commitMessages);
      const org = rules.orgRules.length;
      if (args.verbose) {
        ctx.io.stdout(`${P}: mode=${mode} range=${req.range ?? "none"} files=${report.files} commit-messages=${messages} org-rules=${org} config=${rules.configName} engine=${engineName}\n`);
      }
      const meta = { version: VERSION, mode, rules: rules.set.rules.map((r) => ({ id: r.id, description: r.description })), maxFindings: opts.budget };
      if (path !== undefined) writeReport(resolve(ctx.cwd, path), renderReport(format, report, meta));
      if (docOnStdout) ctx.io.stdout(renderReport(format, report, meta));
      const blind = blindSpotLine(report);
      if (blind) logger(ctx, "").log(blind);
      if (args.baseline !== undefined) logger(ctx, P).log(`${report.suppressed} finding(s) suppressed by the baseline or .gitleaksignore`);
      const total = report.findings.length + report.more;
      const summary = `(mode=${mode}, files=${report.files}, commit-messages=${messages}, org-rules=${org})`;
      if (total) {
        logger(ctx, P).log(`FAIL — ${total} finding(s) (fail-closed)`);
        const lines = docOnStdout ? [] : textLines(report, meta).slice(stream ? report.findings.length : 0);
        if (lines.length) logger(ctx, "").log(lines.join("\n"));
        logger(ctx, P).log("fix, or exempt with a .gitleaksignore fingerprint, then re-run.");
        return "findings";
      }
      const ok = `OK — 0 findings ${summary}`;
      if (docOnStdout) logger(ctx, P).log(ok);
      else ctx.io.stdout(`${P}: ${ok}\n`);
      return "ok";
    } catch (e) {
      return failure(ctx, e);
    }
  },
});

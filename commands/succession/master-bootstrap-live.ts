import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { psProbe } from "../../src/succession/bootstrap/dual.ts";
import { DEFAULT_LIVE_BUDGET } from "../../src/succession/bootstrap/live-sources.ts";
import { fallbackLine, runLive, type BdRunner } from "../../src/succession/bootstrap/live.ts";
import { parseSessionStart, readStdinText } from "../../src/succession/bootstrap/stdin.ts";
import { ARGS, UNBOUNDED_MAX, UNBOUNDED_MIN } from "../../src/lib/args.ts";
import { defineCommand } from "../../src/lib/command.ts";
import { resolveStatePath, type Ctx } from "../../src/lib/context.ts";
import { describeFailure } from "../../src/lib/runner.ts";
import { activeTracks, replayFile, trackLine, WORK_LEDGER_ENV, WORK_LEDGER_FILE } from "../../src/succession/tracks/ledger.ts";

const NAME = "master-bootstrap-live";
const BD_TIMEOUT_MS = 5_000;

/** Both bd calls start at once, before stdin is read: the hook's wall time is mostly these two process starts. */
function prefetchedBd(ctx: Ctx, exe: string, wanted: string[][]): BdRunner {
  const run = async (args: string[]) => {
    const r = await ctx.runner([exe, ...args], { cwd: ctx.cwd, env: ctx.env, timeoutMs: BD_TIMEOUT_MS });
    if (r.missing || r.timedOut || r.signal) throw new Error(describeFailure(r, BD_TIMEOUT_MS));
    return r.stdout;
  };
  const early = new Map(
    wanted.map((a) => {
      const p = run(a);
      p.catch(() => undefined);
      return [a.join(" "), p] as const;
    }),
  );
  return (args) => early.get(args.join(" ")) ?? run(args);
}

function ledgerSource(ctx: Ctx, mode: string, flag: string | undefined): (() => Promise<string[]>) | undefined {
  const path = resolveStatePath(ctx, flag, WORK_LEDGER_ENV, WORK_LEDGER_FILE);
  if (mode === "bd" || (mode === "auto" && !existsSync(path))) return undefined;
  return async () => {
    const r = replayFile(path);
    if (r.warnings.length) {
      // Loaded only when there is something to say: the hook's start-up path stays free of consola.
      const { logger } = await import("../../src/lib/log.ts");
      logger(ctx, NAME).warn(`work ledger ${path}: ${r.warnings.length} bad line(s) skipped`);
    }
    return activeTracks(r).map(trackLine);
  };
}

export default defineCommand({
  meta: {
    name: NAME,
    description: [
      "SessionStart hook: print the bounded boot block (Role State, active tracks, charter pointer, memory",
      "audit counts, dual-instance line, alerts), reading the hook's JSON payload on stdin. Fail-open: any",
      "internal error prints one [BOOTSTRAP-FALLBACK] line and exits 0, so a session start never dies here.",
    ].join("\n"),
  },
  usage: ["master-bootstrap-live --handoff-dir <dir> [--role-state-file <file>] [--budget <chars>] [--bd <exe>]", "    [--charter-pointer <text>] [--tracks-from auto|bd|ledger] [--work-ledger <path>]"],
  args: {
    "handoff-dir": { type: "string", valueHint: "dir", required: true, description: "Directory of handoff *.md files (the greatest name wins)" },
    "role-state-file": { type: "string", valueHint: "file", description: "Canonical role-state.md, preferred over the handoff" },
    // The original: `--budget INT`, no bound (issue 26 §3).
    budget: { type: "int", min: UNBOUNDED_MIN, max: UNBOUNDED_MAX, valueHint: "chars", description: "Memory budget for the `bd prime` audit", default: DEFAULT_LIVE_BUDGET },
    bd: { type: "string", valueHint: "exe", description: "The bd tracker executable", default: "bd" },
    "charter-pointer": { type: "string", valueHint: "text", description: "Charter pointer line (else $CHARTER_POINTER, else a neutral default)" },
    "tracks-from": { type: "enum", options: ["auto", "bd", "ledger"], valueHint: "source", description: "Active tracks from bd or the work ledger (auto: the ledger when it exists)", default: "auto" },
    "work-ledger": { ...ARGS.ledger, description: `Work ledger (default $${WORK_LEDGER_ENV}, else $MOGUI_HOME/${WORK_LEDGER_FILE})` },
  },
  notes: [
    "stdin: the SessionStart JSON; `source: compact` suppresses the Role State and tracks sections (recall\n" +
      "probe) and prepends the E12 warning. Session id for the dual-instance probe: $CLAUDE_SESSION_ID, else the\n" +
      "payload's session_id. The whole block stays within 1000 characters (tracks cut first, each cut marked).",
  ],
  exits: {
    ok: { code: 0, meaning: "the block was printed, or one [BOOTSTRAP-FALLBACK] line (fail-open)" },
    usage: { code: 2, meaning: "usage only (e.g. --handoff-dir missing)" },
  },
  examples: ["mogui master-bootstrap-live --handoff-dir ./handoffs --role-state-file master-ops/docs/runbooks/role-state.md"],
  async run({ ctx, args, fail }) {
    if (!args.bd.trim()) return fail("usage", `${NAME}: --bd must name an executable`);
    try {
      const ledgerTracks = ledgerSource(ctx, args["tracks-from"], args["work-ledger"]);
      const wanted = [...(ledgerTracks ? [] : [["list", "--status", "in_progress"]]), ["prime", "--memories-only"]];
      const bd = prefetchedBd(ctx, args.bd, wanted);
      const payload = parseSessionStart(await readStdinText());
      const sessionId = ctx.env.CLAUDE_SESSION_ID || payload.sessionId;
      const block = await runLive({
        handoffDir: resolve(ctx.cwd, args["handoff-dir"]),
        roleStateFile: args["role-state-file"] === undefined ? undefined : resolve(ctx.cwd, args["role-state-file"]),
        bd,
        ledgerTracks,
        probe: psProbe(ctx),
        sessionId,
        budgetChars: args.budget,
        charterPointer: args["charter-pointer"],
        envCharterPointer: ctx.env.CHARTER_POINTER,
        source: payload.source,
        parentPid: process.ppid,
      });
      ctx.io.stdout(`${block}\n`);
    } catch (e) {
      ctx.io.stdout(`${fallbackLine(e, "CLI ")}\n`);
    }
    return "ok";
  },
});

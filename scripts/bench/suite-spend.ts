// `bun run bench spend`: the spend figures of issue 18, each against a baseline measured in the same run.
//   1. `spend record` over ~1 GB of generated transcripts (Claude Code and Codex, with split responses, repeated
//      token_count events and malformed lines): throughput in MB/s and peak RSS, against `wc -l` and `cat` of
//      the same bytes. Targets: >= 200 MB/s streaming, peak RSS < 128 MB.
//   2. `dispatch-gate check` with spend caps on a 1M-row gate ledger AND a 1M-row spend ledger (rows over 365
//      days, 24 h window) against the same check on empty ledgers. Target: <= 1.5x.
// `--gb <n>` changes the transcript volume (default 1); `--part record|gate` runs one half. Commands compared by a
// ratio run interleaved.
import { appendFileSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { fmt, interleaved, once as timeOnce, printTable as table, ratio, type Cmd, type Sample } from "./measure.ts";
import { generateLedger } from "./suite-gate.ts";

const YEAR = 365 * 86_400;
const CONTRACT_TEXT = "Implement the parser for the ledger format.\nScope: src/parser.ts\n";

function mb(k: number | null): string {
  return k === null ? "n/a" : `${(k / 1024).toFixed(1)} MB`;
}

const FILLER = "The parser reads each record, checks its fields and reports the line of the first bad one. ".repeat(40);

/** Append the lines `next(i)` yields (i = 0, 1, ...) until about `bytes` are written, in 4 MB writes. */
function writeLines(path: string, bytes: number, next: (i: number) => string[]): void {
  let buf: string[] = [];
  let size = 0;
  let written = 0;
  for (let i = 0; written + size < bytes; i++) {
    for (const l of next(i)) {
      buf.push(`${l}\n`);
      size += l.length + 1;
    }
    if (size > 4 << 20) {
      appendFileSync(path, buf.join(""));
      written += size;
      buf = [];
      size = 0;
    }
  }
  appendFileSync(path, buf.join(""));
}

/** One Claude Code session file of about `bytes`: user turns, tool results, responses split over 2-3 lines. */
function claudeFile(path: string, bytes: number, seed: number): void {
  writeFileSync(path, "");
  writeLines(path, bytes, (i) => {
    const id = `msg_${seed}_${i}`;
    const usage = { input_tokens: 10 + (i % 7), cache_creation_input_tokens: 100, cache_read_input_tokens: 2000 + i, output_tokens: 50 + (i % 13) };
    const lines = [
      JSON.stringify({ type: "user", sessionId: `s${seed}`, uuid: `u${i}`, timestamp: "2026-11-30T10:00:00Z", message: { role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: FILLER.slice(0, 1500 + (i % 5) * 500) }] } }),
      JSON.stringify({
        type: "assistant",
        sessionId: `s${seed}`,
        uuid: `a${i}`,
        requestId: `req_${i}`,
        timestamp: "2026-11-30T10:00:01Z",
        message: { id, role: "assistant", model: "claude-sonnet-5", content: [{ type: "thinking", thinking: FILLER.slice(0, 800) }], usage },
      }),
      JSON.stringify({
        type: "assistant",
        sessionId: `s${seed}`,
        uuid: `b${i}`,
        requestId: `req_${i}`,
        timestamp: "2026-11-30T10:00:02Z",
        message: { id, role: "assistant", model: "claude-sonnet-5", content: [{ type: "text", text: FILLER.slice(0, 600) }], usage },
      }),
    ];
    if (i % 500 === 7) lines.push("{torn-in-the-middle");
    return lines;
  });
}

/** One Codex rollout of about `bytes`: response items and token_count events (each total repeated once). */
function codexFile(path: string, bytes: number, seed: number): void {
  writeFileSync(path, `${JSON.stringify({ type: "session_meta", payload: { id: `r${seed}`, cwd: "/srv/wt" } })}\n${JSON.stringify({ type: "turn_context", payload: { model: "gpt-5.5" } })}\n`);
  writeLines(path, bytes, (i) => {
    const total = 1000 * (i + 1);
    const tc = JSON.stringify({ type: "event_msg", payload: { type: "token_count", info: { total_token_usage: { input_tokens: total, cached_input_tokens: total / 2, output_tokens: total / 10 } } } });
    return [JSON.stringify({ type: "response_item", payload: { type: "message", role: "assistant", content: [{ type: "output_text", text: FILLER.slice(0, 2500) }] } }), tc, tc];
  });
}

function spendLedger(path: string, n: number, nowSec: number): void {
  writeFileSync(path, "");
  let buf: string[] = [];
  const models = ["gpt-5.6-luna", "claude-sonnet-5", "claude-opus-5"];
  const tiers = ["efficient", "efficient", "top"];
  for (let i = 0; i < n; i++) {
    const m = i % 3;
    buf.push(
      `${JSON.stringify({ cache_creation_tokens: 0, cache_read_tokens: 100, event: "spend", input_tokens: 10, job_id: `job-${i % 997}`, model: models[m], output_tokens: 5, responses: 1, tier: tiers[m], transcript: `/srv/t/${i % 997}.jsonl`, ts: nowSec - YEAR + (YEAR * i) / n })}\n`,
    );
    if (buf.length >= 50_000) {
      appendFileSync(path, buf.join(""));
      buf = [];
    }
  }
  appendFileSync(path, buf.join(""));
}

async function recordPart(bin: string, tmp: string, runs: number, gb: number): Promise<string[]> {
  const dir = join(tmp, "transcripts");
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  const per = 32 << 20;
  const n = Math.max(2, Math.round((gb * 1e9) / per));
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const f = join(dir, `${i % 4 === 3 ? "codex" : "claude"}-${i}.jsonl`);
    (i % 4 === 3 ? codexFile : claudeFile)(f, per, i);
    files.push(f);
  }
  const bytes = files.reduce((s, f) => s + statSync(f).size, 0);
  console.error(`bench: generated ${files.length} transcripts, ${(bytes / 1e6).toFixed(0)} MB, in ${fmt(performance.now() - t0)}`);
  const home = join(tmp, "home-spend");
  mkdirSync(home, { recursive: true });
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, MOGUI_HOME: home, NO_COLOR: "1" };
  const record: Cmd = { argv: [bin, "spend", "record", "--job", "bench", ...files.flatMap((f) => ["--transcript", f])], env };
  const wc: Cmd = { argv: ["wc", "-l", ...files] };
  const cat: Cmd = { argv: ["sh", "-c", 'cat "$@" > /dev/null', "cat", ...files] };
  // Every timed record starts from scratch: no state, no ledger.
  const fresh = () => {
    rmSync(join(home, "spend-ledger.jsonl"), { force: true });
    rmSync(join(home, "spend-ledger.jsonl.state.json"), { force: true });
  };
  const [rec, w, c] = interleaved([record, wc, cat], runs, fresh);
  if (!rec || !w || !c) throw new Error("interleaved: one sample per command expected");
  const mbps = (s: Sample) => `${(bytes / 1e6 / (s.medianMs / 1000)).toFixed(0)} MB/s`;
  table([
    ["command (over the same bytes)", "median", "p95", "throughput", "ratio", "peak RSS"],
    [`spend record, ${files.length} transcripts`, fmt(rec.medianMs), fmt(rec.p95Ms), mbps(rec), `${ratio(rec.medianMs, w.medianMs)} x wc -l`, mb(rec.peakRssKb)],
    ["wc -l (baseline)", fmt(w.medianMs), fmt(w.p95Ms), mbps(w), "1.00", mb(w.peakRssKb)],
    ["cat > /dev/null (baseline)", fmt(c.medianMs), fmt(c.p95Ms), mbps(c), `${ratio(c.medianMs, w.medianMs)} x wc -l`, mb(c.peakRssKb)],
  ]);
  const tp = bytes / 1e6 / (rec.medianMs / 1000);
  return [`spend record >= 200 MB/s: ${tp.toFixed(0)} MB/s ${tp >= 200 ? "MET" : "MISSED"}`, `spend record peak RSS < 128 MB: ${mb(rec.peakRssKb)} ${rec.peakRssKb !== null && rec.peakRssKb < 128 * 1024 ? "MET" : "MISSED"}`];
}

async function gatePart(bin: string, tmp: string, runs: number): Promise<string[]> {
  const contract = join(tmp, "contract.md");
  writeFileSync(contract, CONTRACT_TEXT);
  const policy = join(tmp, "policy.json");
  writeFileSync(
    policy,
    JSON.stringify({ version: 2, tiers: { top: ["claude-opus-5"], efficient: ["gpt-5.6-luna", "claude-sonnet-5", "grok-4.5"] }, fanout_caps: { efficient: 1_000_000_000, unknown: 8 }, spend_caps: { efficient: 1_000_000_000_000 }, window_seconds: 86_400 }),
  );
  const nowSec = Date.now() / 1000;
  const benchSha = createHash("sha256").update(CONTRACT_TEXT).digest("hex");
  const homes: Record<string, string> = {};
  for (const [label, n] of [
    ["empty", 0],
    ["200k", 200_000],
    ["1M", 1_000_000],
  ] as const) {
    const home = join(tmp, `home-gate-${label}`);
    mkdirSync(home, { recursive: true });
    const t0 = performance.now();
    generateLedger(join(home, "dispatch-ledger.jsonl"), n, nowSec, benchSha, policy);
    spendLedger(join(home, "spend-ledger.jsonl"), n, nowSec);
    if (n) console.error(`bench: generated ${n} gate rows and ${n} spend rows (${(statSync(join(home, "spend-ledger.jsonl")).size / 1e6).toFixed(0)} MB spend) in ${fmt(performance.now() - t0)}`);
    homes[label] = home;
  }
  const check = (home: string): Cmd => ({
    argv: [bin, "dispatch-gate", "check", "--runtime", "codex", "--model", "gpt-5.6-luna", "--contract", contract, "--agents", "1", "--completion-channel", "orchestration", "--tier-policy", policy],
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, MOGUI_HOME: home, NO_COLOR: "1" },
  });
  for (const h of Object.values(homes)) timeOnce(check(h)); // the first check builds the gate's sidecar caches
  const [e, mid, big] = interleaved([check(homes.empty!), check(homes["200k"]!), check(homes["1M"]!)], runs);
  table([
    ["command", "median", "p95", "ratio", "peak RSS"],
    ["check with spend caps, empty ledgers (baseline)", fmt(e!.medianMs), fmt(e!.p95Ms), "1.00", mb(e!.peakRssKb)],
    ["check with spend caps, 200k gate + 200k spend rows", fmt(mid!.medianMs), fmt(mid!.p95Ms), `${ratio(mid!.medianMs, e!.medianMs)} x empty`, mb(mid!.peakRssKb)],
    ["check with spend caps, 1M gate + 1M spend rows", fmt(big!.medianMs), fmt(big!.p95Ms), `${ratio(big!.medianMs, e!.medianMs)} x empty`, mb(big!.peakRssKb)],
  ]);
  return [
    `check with spend caps, 200k+200k rows <= 1.5x empty: ${ratio(mid!.medianMs, e!.medianMs)}x ${mid!.medianMs <= 1.5 * e!.medianMs ? "MET" : "MISSED"}`,
    `check with spend caps, 1M+1M rows <= 1.5x empty: ${ratio(big!.medianMs, e!.medianMs)}x ${big!.medianMs <= 1.5 * e!.medianMs ? "MET" : "MISSED"}`,
  ];
}

export default async function spendSuite({ runs, bin, tmp, args }: { runs: number; bin: string; tmp: string; args: string[] }): Promise<number> {
  const gi = args.indexOf("--gb");
  const gb = gi >= 0 ? Number(args[gi + 1]) : 1;
  if (!(gb > 0 && gb <= 8)) {
    console.error("bench: --gb takes a number from 0.1 to 8");
    return 2;
  }
  const pi = args.indexOf("--part");
  const part = pi >= 0 ? args[pi + 1] : "all";
  if (part !== "all" && part !== "record" && part !== "gate") {
    console.error("bench: --part takes record, gate or all");
    return 2;
  }
  const recordRuns = Math.max(3, Math.min(runs, 5));
  const verdicts: string[] = [];
  if (part !== "gate") verdicts.push(...(await recordPart(bin, tmp, recordRuns, gb)), "");
  if (part === "all") console.log("");
  if (part !== "record") verdicts.push(...(await gatePart(bin, tmp, runs)));
  console.log(`\nruns: ${part !== "gate" ? `${recordRuns} interleaved rounds of record / wc / cat; ` : ""}${part !== "record" ? `${runs} interleaved rounds of the two checks` : ""}`);
  for (const v of verdicts) if (v) console.log(v);
  return 0;
}

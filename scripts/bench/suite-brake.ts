// The spend brake's cost per tool call (issue 29 §1, D44): `mogui hook spend-brake` runs before EVERY tool call
// of a capped worker, so with a 200 MB transcript already read (the incremental case: one new response appended
// before each call) its p95 must stay within 1.5x the median of a bare `mogui --version`, both measured in this
// run, interleaved (version, brake, version, brake, ...) so background load hits both alike.
//   bun run bench brake [--runs N] [--transcript-mb N]   (at least 150 samples per command)
import { appendFileSync, mkdirSync, openSync, closeSync, writeSync } from "node:fs";
import { join } from "node:path";
import { fmt, loadAverage, quantile } from "./measure.ts";

/** One Claude Code response: a few content-block lines with one usage, and the tool results between them. */
function response(i: number, pad: string): string {
  const usage = { input_tokens: 3, output_tokens: 2, cache_read_input_tokens: 1, cache_creation_input_tokens: 0 };
  const a = (block: object) => `${JSON.stringify({ type: "assistant", requestId: `req_${i}`, timestamp: "2026-12-03T10:00:00Z", message: { id: `msg_${i}`, role: "assistant", model: "claude-sonnet-5", content: [block], usage } })}\n`;
  const u = `${JSON.stringify({ type: "user", timestamp: "2026-12-03T10:00:01Z", message: { role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: pad }] } })}\n`;
  return a({ type: "thinking", thinking: "..." }) + a({ type: "tool_use", id: `t${i}`, name: "Bash", input: { command: "ls" } }) + u;
}

export default async function brakeSuite({ runs, bin, tmp, args }: { runs: number; bin: string; tmp: string; args: string[] }): Promise<number> {
  const n = Math.max(runs, 150);
  const mbArg = args.indexOf("--transcript-mb");
  const mb = mbArg >= 0 ? Number(args[mbArg + 1]) : 200;
  const home = join(tmp, "home");
  mkdirSync(home, { recursive: true });
  const transcript = join(tmp, "session.jsonl");
  // ~200 MB of real-shaped lines (tool results carry most of the bytes, as in real sessions).
  const pad = "x".repeat(4000);
  const fd = openSync(transcript, "w");
  let bytes = 0;
  let i = 0;
  const chunk: string[] = [];
  while (bytes < mb * 1024 * 1024) {
    const r = response(i++, pad);
    chunk.push(r);
    bytes += r.length;
    if (chunk.length === 500) {
      writeSync(fd, chunk.join(""));
      chunk.length = 0;
    }
  }
  writeSync(fd, chunk.join(""));
  closeSync(fd);
  const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: tmp, MOGUI_HOME: home, NO_COLOR: "1" };
  const input = new TextEncoder().encode(JSON.stringify({ session_id: "bench", hook_event_name: "PreToolUse", transcript_path: transcript, cwd: tmp, tool_name: "Bash", tool_input: { command: "ls" } }));
  const brakeArgv = [bin, "hook", "spend-brake", "--job", "bench", "--max-tokens", "1000000000000"];
  const once = (argv: string[], stdin: Uint8Array | "ignore"): number => {
    const t0 = performance.now();
    const r = Bun.spawnSync(argv, { env, cwd: tmp, stdin, stdout: "pipe", stderr: "pipe" });
    const ms = performance.now() - t0;
    if (r.exitCode !== 0) throw new Error(`${argv.slice(1).join(" ")} exited ${r.exitCode}: ${r.stderr.toString().trim()}`);
    return ms;
  };
  const t0 = performance.now();
  once(brakeArgv, input); // the first call reads the whole transcript
  const first = performance.now() - t0;
  for (let k = 0; k < 3; k++) {
    once([bin, "--version"], "ignore");
    once(brakeArgv, input);
  }
  const v: number[] = [];
  const b: number[] = [];
  for (let k = 0; k < n; k++) {
    v.push(once([bin, "--version"], "ignore"));
    appendFileSync(transcript, response(i++, "ok"));
    b.push(once(brakeArgv, input));
  }
  const vMed = quantile(v, 0.5);
  const ratio = quantile(b, 0.95) / vMed;
  console.log(`transcript: ${(bytes / 1024 / 1024).toFixed(0)} MB, ${i} responses; the first brake call (reads it all): ${fmt(first)}`);
  console.log(`mogui --version (baseline)             median ${fmt(vMed)}  p95 ${fmt(quantile(v, 0.95))}`);
  console.log(`mogui hook spend-brake (one new reply) median ${fmt(quantile(b, 0.5))}  p95 ${fmt(quantile(b, 0.95))}`);
  const load = await loadAverage();
  console.log(`brake p95 / --version median: ${ratio.toFixed(2)}x (target <= 1.5x) ${ratio <= 1.5 ? "MET" : "MISSED"}  (${n} samples each, load ${load ?? "?"})`);
  return ratio <= 1.5 ? 0 : 1;
}

/**
 * mogui top through the COMPILED binary in a real terminal: tmux (our own server, `-L`), keys by `send-keys`, the
 * screen by `capture-pane -p`, the herdr simulator and real temp repositories. Every wait polls the screen until
 * the expected text appears (a loaded machine is slow, never wrong), with a deadline.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { binaryPath } from "../../helpers/binary.ts";
import { topWorld, type TopWorld } from "../../helpers/top-world.ts";

const SERVER = `top-test-${process.pid}`;
const started: string[] = [];

function tmux(env: Record<string, string> | undefined, ...args: string[]): string {
  const p = Bun.spawnSync(["tmux", "-L", SERVER, ...args], { env, stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`tmux ${args.join(" ")}: ${p.stderr.toString()}`);
  return p.stdout.toString();
}

afterAll(() => {
  if (started.length) Bun.spawnSync(["tmux", "-L", SERVER, "kill-server"], { stdout: "ignore", stderr: "ignore" });
});

interface Term {
  name: string;
  keys(...k: string[]): void;
  type(text: string): void;
  screen(): string;
  until(pred: (s: string) => boolean, what: string, ms?: number): Promise<string>;
  pid(): number | null;
}

/** A shell in its own tmux session (the server inherits the world's env: PATH with the simulators first). */
function term(w: TopWorld, name: string, width: number, height: number): Term {
  // dash as root sets its own PS1 over the environment's: an ENV file (read by every interactive sh) sets ours.
  const rc = join(w.home, "shrc");
  writeFileSync(rc, "PS1='top-shell$ '\n");
  const env = { ...w.env, ENV: rc, TERM: "xterm-256color", PATH: `${binaryPath().replace(/\/mogui$/, "")}:${w.env.PATH}` };
  const vars = Object.entries(env).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
  tmux(env, "new-session", "-d", "-s", name, "-x", String(width), "-y", String(height), "-c", w.f.dir, ...vars, "sh");
  started.push(name);
  const t: Term = {
    name,
    keys: (...k) => void tmux(undefined, "send-keys", "-t", name, ...k),
    type: (text) => void tmux(undefined, "send-keys", "-t", name, "-l", text),
    screen: () => tmux(undefined, "capture-pane", "-p", "-t", name),
    async until(pred, what, ms = 30_000) {
      const end = Date.now() + ms;
      let s = "";
      while (Date.now() < end) {
        s = t.screen();
        if (pred(s)) return s;
        await Bun.sleep(100);
      }
      throw new Error(`timed out waiting for ${what}; the screen:\n${s}`);
    },
    pid() {
      const shell = Number(tmux(undefined, "list-panes", "-t", name, "-F", "#{pane_pid}").trim());
      try {
        const kids = readFileSync(`/proc/${shell}/task/${shell}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
        return kids[0] ?? null;
      } catch {
        return null;
      }
    },
  };
  return t;
}

const lines = (s: string) => s.replace(/\n$/, "").split("\n");
const has =
  (...xs: string[]) =>
  (s: string) =>
    xs.every((x) => s.includes(x));

describe("mogui top in a terminal", () => {
  test("160x50: rows, help, filter, detail, reap through d (safe removed, unsafe refused with its reason), quit restores the shell", async () => {
    const w = topWorld();
    const t = term(w, "wide", 160, 50);
    await t.until(has("top-shell$"), "the shell prompt");
    t.type(`mogui top --repo ${w.f.repo}`);
    t.keys("Enter");
    let s = await t.until(has("REAP-READY (1)", "job-7", "job-8", "wt-dirty", "wt-done", "claude-opus-5→claude-sonnet-5"), "the rows");
    expect(lines(s).length).toBe(50);
    expect(lines(s)[0]).toStartWith("mogui top  4 rows");
    expect(lines(s)[49]).toContain("q quit");
    expect(s).toMatch(/job-7 .* done .* ✓ +pending +bound to open job job-7/);

    t.keys("?");
    await t.until(has("mogui top: keys", "reap the selected worktree"), "the help");
    t.keys("x");
    await t.until((x) => x.includes("REAP-READY") && !x.includes("mogui top: keys"), "the list again");

    t.keys("/");
    t.type("dirty");
    t.keys("Enter");
    s = await t.until((x) => x.includes("wt-dirty") && !x.includes("job-7") && x.includes("filter: dirty"), "the filtered list");
    t.keys("Escape");
    await t.until(has("job-7", "wt-dirty", "wt-done"), "the filter cleared");

    // Detail of job-7 (the first row: NEEDS YOU comes first, then by age).
    t.keys("/");
    t.type("job-7");
    t.keys("Enter");
    await t.until((x) => x.includes("job-7") && !x.includes("wt-done"), "job-7 alone");
    t.keys("Enter");
    s = await t.until(has("DETAIL job-7", "Ledger rows:", '"event":"job_spawned"', "brief.md", "Last transcript lines", "assistant/assistant: working on it"), "the detail pane");
    t.keys("Escape");
    await t.until((x) => x.includes("REAP-READY") || x.includes("NEEDS YOU"), "the list again");
    t.keys("Escape");

    // d on the safe worktree: asked, then removed by fleet reap.
    t.keys("/");
    t.type("wt-done");
    t.keys("Enter");
    await t.until((x) => x.includes("wt-done") && !x.includes("job-7"), "wt-done alone");
    t.keys("d");
    await t.until(has(`Reap ${w.wt.done}? fleet reap's checks decide; y/N`), "the question");
    t.keys("y");
    await t.until(has(`removed ${w.wt.done}`), "the removal");
    expect(existsSync(w.wt.done)).toBe(false);
    expect(readFileSync(`${w.home}/dispatch-ledger.jsonl`, "utf8")).toContain('"event":"fleet_reap"');

    // d on the dirty one: refused with fleet reap's reason, nothing removed.
    t.keys("Escape");
    t.keys("/");
    t.type("wt-dirty");
    t.keys("Enter");
    await t.until((x) => x.includes("wt-dirty") && !x.includes("job-7"), "wt-dirty alone");
    t.keys("d");
    await t.until(has("y/N"), "the question");
    t.keys("y");
    await t.until(has(`left ${w.wt.dirty}: Worktree has uncommitted changes`), "the refusal");
    expect(existsSync(`${w.wt.dirty}/notes.txt`)).toBe(true);

    // n answers no.
    t.keys("d");
    await t.until(has("y/N"), "the question");
    t.keys("n");
    await t.until(has("reap cancelled"), "cancelled");

    t.keys("q");
    s = await t.until((x) => x.includes("top-shell$") && !x.includes("REAP-READY") && !x.includes("NEEDS YOU"), "the shell again");
    expect(s).toContain(`top-shell$ mogui top --repo ${w.f.repo}`);
  }, 120_000);

  test("80x24: every line fits, low-priority columns dropped; --readonly turns d off; SIGTERM restores the terminal", async () => {
    const w = topWorld();
    const t = term(w, "narrow", 80, 24);
    await t.until(has("top-shell$"), "the shell prompt");
    t.type(`mogui top --repo ${w.f.repo} --readonly --interval-ms 500; echo "top exited $?"`);
    t.keys("Enter");
    const s = await t.until(has("NEEDS YOU", "job-7", "wt-done"), "the rows");
    const ls = lines(s);
    expect(ls.length).toBe(24);
    expect(ls[0]).toStartWith("mogui top  4 rows");
    expect(ls[23]).toStartWith("READ-ONLY");
    expect(s).not.toContain("BURN/H");
    expect(s).toContain("REAP");
    t.keys("/");
    t.type("wt-done");
    t.keys("Enter");
    await t.until((x) => x.includes("wt-done") && !x.includes("job-7"), "wt-done alone");
    t.keys("d");
    await t.until(has("d is off: top runs read-only (--readonly)"), "the refusal");
    expect(existsSync(w.wt.done)).toBe(true);
    // A refresh picks up what the host says now: job-8's agent goes from blocked to working.
    t.keys("Escape");
    await t.until((x) => /job-8 .*blocked/.test(x), "job-8 blocked");
    const rep = Bun.spawnSync(["herdr", "pane", "report-agent", "w1:p2", "--source", "test", "--agent", "claude", "--state", "working"], { env: w.env });
    expect(rep.exitCode).toBe(0);
    await t.until((x) => /job-8 .*working/.test(x) && x.includes("RUNNING (1)"), "job-8 working, under RUNNING");
    const pid = t.pid();
    expect(pid).not.toBeNull();
    process.kill(pid!, "SIGTERM");
    const after = await t.until(has("top exited 0"), "top to exit on SIGTERM");
    expect(after).not.toContain("NEEDS YOU");
  }, 120_000);

  test("a resize (SIGWINCH) redraws at the new size; --publish-herdr fills the panes; Ctrl-C quits and restores the terminal", async () => {
    const w = topWorld();
    const t = term(w, "ctrlc", 160, 50);
    await t.until(has("top-shell$"), "the shell prompt");
    // No refresh comes in the test's lifetime: only SIGWINCH can redraw.
    t.type(`mogui top --repo ${w.f.repo} --publish-herdr --interval-ms 600000; echo "top exited $?"`);
    t.keys("Enter");
    await t.until((x) => x.includes("NEEDS YOU") && lines(x).length === 50 && lines(x)[49]!.includes("q quit"), "the rows at 160x50");
    tmux(undefined, "resize-window", "-t", t.name, "-x", "80", "-y", "24");
    const small = await t.until((x) => lines(x).length === 24 && lines(x)[23]!.includes("? help") && lines(x)[0]!.startsWith("mogui top"), "the redraw at 80x24");
    expect(small).not.toContain("BURN/H");
    const pane = Bun.spawnSync(["herdr", "pane", "get", "w1:p1"], { env: w.env, stdout: "pipe" });
    expect(JSON.parse(pane.stdout.toString()).result.pane.tokens).toEqual({ pushed: "yes", spend: "1.5k tok", verdict: "pending" });
    t.keys("C-c");
    const s = await t.until(has("top exited 0"), "top to exit");
    expect(s).not.toContain("NEEDS YOU");
  }, 90_000);
});

/**
 * Runs attack-table commands in one batch: each command gets its own fresh copy of the product
 * (`<root>/c<i>/p/product`) and its own scratch directory (`<root>/c<i>/w`), and one bash runner script executes
 * them all (`bash -c CMD` each, cwd `$W`, `P` and `W` exported, stdin /dev/null, a timeout each; a few lanes at
 * once), so a sandbox is entered once per batch. The caller wraps the runner (`wrap(["bash", runner])`). After the batch every
 * copy is hashed against the golden tree.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { copyProduct, treeDiff, treeState } from "./attack-product.ts";
import { GIT_ENV } from "./git.ts";

export interface BatchCase {
  id: string;
  cmd: string;
}
export interface BatchResult {
  id: string;
  cmd: string;
  P: string;
  W: string;
  diff: string[];
  /** The exit status bash reported for the command (from the runner's status file), or null when it did not run. */
  status: number | null;
}

export interface Batch {
  root: string;
  runner: string;
  products: string[];
  cases: (BatchCase & { P: string; W: string })[];
}

const q = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

export function prepareBatch(golden: string, root: string, cases: BatchCase[], timeoutS = 10, lanes = 3): Batch {
  mkdirSync(root, { recursive: true });
  // The cases run in a few lanes at once (each case has its own copy, so they cannot meet): less wall time.
  const laneLines: string[][] = Array.from({ length: lanes }, () => ["#!/bin/bash", "exec </dev/null"]);
  const out: Batch["cases"] = [];
  cases.forEach((c, i) => {
    const dir = join(root, `c${i}`);
    const P = copyProduct(golden, join(dir, "p"));
    const W = join(dir, "w");
    mkdirSync(W, { recursive: true });
    const cmdFile = join(dir, "cmd.sh");
    writeFileSync(cmdFile, c.cmd);
    out.push({ ...c, P, W });
    laneLines[i % lanes]!.push(`( cd ${q(W)} && export P=${q(P)} W=${q(W)} HOME=${q(W)} && exec timeout -k 2 ${timeoutS} bash -c "$(cat ${q(cmdFile)})" ) >${q(join(dir, "out.txt"))} 2>&1; echo $? > ${q(join(dir, "status"))}`);
  });
  const lines = ["#!/bin/bash"];
  laneLines.forEach((l, k) => {
    const lane = join(root, `lane${k}.sh`);
    writeFileSync(lane, `${l.join("\n")}\n`);
    lines.push(`bash ${q(lane)} &`);
  });
  lines.push("wait", "echo batch-done");
  const runner = join(root, "runner.sh");
  writeFileSync(runner, `${lines.join("\n")}\n`);
  return { root, runner, products: out.map((c) => c.P), cases: out };
}

export function judgeBatch(batch: Batch, goldenState: Map<string, string>): BatchResult[] {
  return batch.cases.map((c, i) => {
    let status: number | null = null;
    try {
      status = Number(readFileSync(join(batch.root, `c${i}`, "status"), "utf8").trim());
    } catch {
      /* did not run */
    }
    return { id: c.id, cmd: c.cmd, P: c.P, W: c.W, diff: treeDiff(goldenState, treeState(c.P)), status };
  });
}

/** Relative tree state of the golden product, comparable with copies (paths are relative, so copies hash alike). */
export function goldenStateOf(golden: string): Map<string, string> {
  return treeState(golden);
}

/** The environment an attack batch runs in: git quiet and identity-free, C locale, no pager, no colour. */
export const attackEnv = (home: string): Record<string, string> => ({ ...GIT_ENV, PATH: "/usr/local/bin:/usr/bin:/bin", HOME: home, LC_ALL: "C", GIT_PAGER: "cat", PAGER: "cat", NO_COLOR: "1" });

/** Run argv to its end (killed after `timeoutMs`), stdin closed; its exit code and output. */
export async function runTimed(argv: string[], e: Record<string, string>, timeoutMs: number): Promise<{ code: number | null; out: string; err: string }> {
  const p = Bun.spawn(argv, { env: e, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => p.kill(9), timeoutMs);
  const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()]);
  const code = await p.exited;
  clearTimeout(timer);
  return { code, out, err };
}

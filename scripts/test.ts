// The README's test command: lint and format check (biome ci), dead code (knip), type-check (tsc --noEmit), build dist/mogui (the e2e
// tests run the real binary), then run every bun test. A finding or a type error fails the run before anything else
// (the tools' own output is printed as it is); otherwise the exit code is bun test's own.
import { mkdirSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const bun = process.execPath;

/** Heavy files (seconds, measured with both shards running) placed first, so the greedy split balances the shards. */
const WEIGHT: Record<string, number> = {
  "test/e2e/publishing/redaction-corpus.test.ts": 43,
  "test/e2e/walkthroughs.test.ts": 27,
  "test/unit/workers/worktree-property.test.ts": 23,
  "test/e2e/dispatch/orca-contract.test.ts": 23,
  "test/e2e/fleet/reap-property.test.ts": 21,
  "test/e2e/workers/rules.test.ts": 19,
  "test/e2e/uniqueness-concurrency.test.ts": 17,
  "test/e2e/commands.test.ts": 17,
  "test/e2e/hooks/srt-attacks.test.ts": 16,
  "test/e2e/hooks/sandbox-attacks.test.ts": 15,
  "test/e2e/ledger-contract.test.ts": 14,
  "test/e2e/developer/mcp.test.ts": 14,
  "test/e2e/release-install.test.ts": 13,
  "test/e2e/publishing/redaction-scan.test.ts": 12,
  "test/e2e/workers/worker-reap.test.ts": 12,
  "test/e2e/workers/flow.test.ts": 11,
  "test/e2e/binary-alone.test.ts": 11,
  "test/e2e/completion.test.ts": 9,
  "test/unit/workers/worktree-safety.test.ts": 8,
  "test/e2e/fleet/spend-brake.test.ts": 7,
  "test/unit/publishing/redaction-literals.test.ts": 7,
  "test/e2e/dispatch/pipeline.test.ts": 7,
  "test/e2e/succession/spawn.test.ts": 6,
  "test/e2e/exit-codes-observed.test.ts": 6,
};

function run(argv: string[], env?: Record<string, string | undefined>): number {
  const p = Bun.spawnSync(argv, { cwd: root, stdout: "inherit", stderr: "inherit", env: env ?? process.env });
  return p.exitCode ?? 1;
}

// Lint and format (Biome, biome.json) and dead code (knip, knip.json) first: a finding fails the run before tsc.
const biome = run([join(root, "node_modules", ".bin", "biome"), "ci", ...(process.env.NO_COLOR ? ["--colors=off"] : []), "."]);
const knip = biome !== 0 ? biome : run([join(root, "node_modules", ".bin", "knip"), "--no-progress"]);
const tsc = knip !== 0 ? knip : run([join(root, "node_modules", ".bin", "tsc"), "--noEmit", "-p", "."]);
if (biome !== 0) {
  process.stderr.write("biome ci failed: fix the findings above (./node_modules/.bin/biome check --write . fixes the safe ones)\n");
  process.exitCode = biome;
} else if (knip !== 0) {
  process.stderr.write("knip failed: remove or un-export what it lists above, or justify it in knip.json (docs/contributing.md)\n");
  process.exitCode = knip;
} else if (tsc !== 0) {
  process.stderr.write("tsc --noEmit failed: fix the type errors above\n");
  process.exitCode = tsc;
} else {
  const build = run([bun, join(root, "scripts", "build.ts")]);
  if (build !== 0) {
    process.exitCode = build;
  } else {
    const env = { ...process.env, MOGUI_TEST_BINARY: join(root, "dist", "mogui") };
    const extra = process.argv.slice(2);
    // Named files or folders: one `bun test` as asked. The whole suite: two shards, one per core (issue 22: under
    // 5 minutes on 2 idle cores), with one combined summary in bun's own words for .ci/run to read.
    process.exitCode = extra.length ? run([bun, "test", "--timeout", "60000", ...extra], env) : await sharded(env);
  }
}

async function sharded(env: Record<string, string | undefined>): Promise<number> {
  const files = [...new Bun.Glob("test/**/*.test.ts").scanSync({ cwd: root })].sort();
  const weight = (f: string) => WEIGHT[f] ?? 0.6;
  const shards: { files: string[]; load: number }[] = [
    { files: [], load: 0 },
    { files: [], load: 0 },
  ];
  for (const f of [...files].sort((a, b) => weight(b) - weight(a) || a.localeCompare(b))) {
    const s = shards[0]!.load <= shards[1]!.load ? shards[0]! : shards[1]!;
    s.files.push(f);
    s.load += weight(f);
  }
  // The first shard streams to the terminal; the second is kept and printed after it, so no lines interleave.
  mkdirSync(join(root, ".tmp"), { recursive: true });
  const out = join(root, ".tmp", `test-shard-${process.pid}.log`);
  const live = Bun.spawn([bun, "test", "--timeout", "60000", ...shards[0]!.files], { cwd: root, env, stdout: "pipe", stderr: "pipe" });
  const kept = Bun.spawn(["sh", "-c", 'exec "$0" "$@" > "$MOGUI_SHARD_LOG" 2>&1', bun, "test", "--timeout", "60000", ...shards[1]!.files], { cwd: root, env: { ...env, MOGUI_SHARD_LOG: out }, stdout: "inherit", stderr: "inherit" });
  const tee = async (stream: ReadableStream<Uint8Array>, to: NodeJS.WriteStream, sink: string[]) => {
    const dec = new TextDecoder();
    for await (const chunk of stream) {
      to.write(chunk);
      sink.push(dec.decode(chunk, { stream: true }));
    }
  };
  const first: string[] = [];
  await Promise.all([tee(live.stdout, process.stdout, first), tee(live.stderr, process.stderr, first), live.exited, kept.exited]);
  const second = await Bun.file(out).text();
  process.stderr.write(second);
  await Bun.file(out).delete();
  const count = (text: string, word: string) => Number([...text.matchAll(new RegExp(`^ *(\\d+) ${word}$`, "gm"))].at(-1)?.[1] ?? 0);
  const both = [first.join(""), second];
  const pass = both.reduce((n, t) => n + count(t, "pass"), 0);
  const fail = both.reduce((n, t) => n + count(t, "fail"), 0);
  const codes = [live.exitCode ?? 1, kept.exitCode ?? 1];
  process.stderr.write(`\nboth shards (${shards[0]!.files.length} + ${shards[1]!.files.length} files):\n ${pass} pass\n ${fail} fail\n`);
  return codes.find((c) => c !== 0) ?? 0;
}

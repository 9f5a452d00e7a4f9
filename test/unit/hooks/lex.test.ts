// The guard's shell lexer, the advisory-hook detectors and spawn-test's tested helpers.
import { describe, expect, test } from "bun:test";
import { parseShell } from "../../../src/lib/shell-lex.ts";
import { pollLoop, unfilteredLargeOutput } from "../../../src/hooks/session/bash-warnings.ts";
import { reportStatusKind, runtimeLaunchCommand } from "../../../src/developer/spawn-test/spawn-test.ts";
import { fingerprint } from "../../../src/hooks/orca/orca-surface.ts";
import { checkBody } from "../../../src/publishing/github/pr-body.ts";

const env = { vars: { HOME: "/home/u", P: "/src/prod" } as Record<string, string | undefined>, home: "/home/u" };
const words = (src: string) => parseShell(src, env).pipelines.map((p) => p.map((c) => c.words));

describe("shell lexer", () => {
  test("quotes, escapes, expansions", () => {
    expect(words(`echo 'a b' "c $P" d\\ e $'x\\ty' ~/f ~x`)).toEqual([[["echo", "a b", "c /src/prod", "d e", "x\ty", "/home/u/f", "~x"]]]);
    expect(words("echo ${P}/x $UNSET/y")).toEqual([[["echo", "/src/prod/x", "$UNSET/y"]]]);
  });

  test("operators split commands and pipelines; comments and line continuations", () => {
    expect(words("a | b && c; d || e & f\ng # h | i")).toEqual([[["a"], ["b"]], [["c"]], [["d"]], [["e"]], [["f"]], [["g"]]]);
    expect(words("(cd x; y) && { z; }")).toEqual([[["cd", "x"]], [["y"]], [["{", "z"]], [["}"]]]);
    expect(words("a \\\n b")).toEqual([[["a", "b"]]]);
  });

  test("redirections with fd numbers, dups and heredocs (body skipped)", () => {
    const p = parseShell("cmd 2>err >>out &>all >&2 <in 3<>rw <<'EOF' >x\nrm -rf /\nEOF\nnext", env);
    expect(p.pipelines[0]![0]!.redirects).toEqual([
      { op: ">", target: "err" },
      { op: ">>", target: "out" },
      { op: "&>", target: "all" },
      { op: ">&", target: "2" },
      { op: "<", target: "in" },
      { op: "<>", target: "rw" },
      { op: "<<", target: "EOF" },
      { op: ">", target: "x" },
    ]);
    expect(p.pipelines.map((x) => x[0]!.words)).toEqual([["cmd"], ["next"]]);
    expect(words("echo '>' \">\" \\> x")).toEqual([[["echo", ">", ">", ">", "x"]]]);
  });

  test("nested command strings are collected from $(), backticks, quotes and process substitution", () => {
    const p = parseShell('echo $(a $(b)) "`c`" <(d) >(e) $((1+2))', env);
    // Only the outermost level: the guard analyses "a $(b)" recursively and finds "b" there.
    expect(p.nested.sort()).toEqual(["a $(b)", "c", "d", "e"]);
    expect(p.pipelines[0]![0]!.words[5]).toBe("0");
  });

  test("unterminated quotes and dangling redirections are errors", () => {
    for (const bad of ["echo 'x", 'echo "x', "echo $(x", "echo >", "echo `x"]) expect(parseShell(bad, env).error).toBeString();
  });
});

describe("static expansions (D32)", () => {
  const keep = (v: string) => v.includes("/src/prod");
  const w = (src: string) => parseShell(src, { ...env, keep }).pipelines.map((p) => p.map((c) => [...c.words, ...c.redirects.map((r) => `${r.op}${r.target}`)]));

  test("assignments earlier in the same command: VAR=, export, +=, for loops; a product value is kept over a later one", () => {
    expect(w("D=/x; echo > $D/f")).toEqual([[["D=/x"]], [["echo", ">/x/f"]]]);
    expect(w("export D=/x E=2; rm ${D}/a$E")).toEqual([[["export", "D=/x", "E=2"]], [["rm", "/x/a2"]]]);
    expect(w("D=/a; D+=/b; rm $D")).toEqual([[["D=/a"]], [["D+=/b"]], [["rm", "/a/b"]]]);
    expect(w("for d in /t /src/prod/x; do rm $d; done")[1]).toEqual([["do", "rm", "/src/prod/x"]]);
    expect(w("D=$P || D=/tmp; rm $D")[2]).toEqual([["rm", "/src/prod"]]);
    expect(w('echo "D=/x"; rm $D')[1]).toEqual([["rm", "$D"]]);
  });

  test("${VAR:-word}, ${VAR:=word}, ${VAR:+word}; unknown forms stay literal", () => {
    expect(w("echo ${U:-/d} ${P:-/d} ${P:+yes} ${U:+yes}")).toEqual([[["echo", "/d", "/src/prod", "yes", ""]]]);
    expect(w(": ${D:=/set}; echo $D")[1]).toEqual([["echo", "/set"]]);
    expect(w("echo ${#P} ${U:-$X}")).toEqual([[["echo", "${#P}", "${U:-$X}"]]]);
  });

  test("$(echo|printf|pwd) and backticks over literals give their output; anything else stays as written", () => {
    const vars = { ...env.vars, PWD: "/cwd" };
    const x = (src: string) => parseShell(src, { ...env, vars }).pipelines[0]![0]!.words;
    expect(x("echo $(echo /a)/f `printf '%s-%d' b 3` $(printf '\\x2fz') $(pwd)/p")).toEqual(["echo", "/a/f", "b-3", "/z", "/cwd/p"]);
    expect(x("echo $(echo -e 'a\\tb') $(echo -n x)")).toEqual(["echo", "a\tb", "x"]);
    expect(x("echo $(cat f) $(echo a | tr a b) $(printf '%q' x)")).toEqual(["echo", "$(cat f)", "$(echo a | tr a b)", "$(printf '%q' x)"]);
  });

  test("brace expansion: alternatives, nesting, sequences; quoted braces and lone braces are literal", () => {
    expect(w("touch {/a,/b}/f x{1..3} {c..a} {x,{y,z}}")).toEqual([[["touch", "/a/f", "/b/f", "x1", "x2", "x3", "c", "b", "a", "x", "y", "z"]]]);
    expect(w("echo '{a,b}' \"{c,d}\" {e} {} a,b")).toEqual([[["echo", "{a,b}", "{c,d}", "{e}", "{}", "a,b"]]]);
    expect(w("{ a; }")).toEqual([[["{", "a"]], [["}"]]]);
  });

  test("shell functions are reported", () => {
    expect(parseShell("f() { x; }; function g { y; }; h", env).functions).toEqual(["f", "g"]);
  });
});

describe("advisory detectors", () => {
  test("poll loops", () => {
    expect(pollLoop("while true; do x; sleep 5; done")).toBe(true);
    expect(pollLoop("until false; do sleep 1; done")).toBe(false);
    expect(pollLoop("while :; do sleep 2; done")).toBe(true);
    expect(pollLoop("sleep 30 && git rev-parse HEAD")).toBe(true);
    expect(pollLoop("sleep 5; curl -s x")).toBe(true);
    expect(pollLoop("sleep 5")).toBe(false);
    expect(pollLoop("while read l; do echo $l; done")).toBe(false);
  });

  test("large output", () => {
    expect(unfilteredLargeOutput("orca terminal read --terminal t")).toBe("orca terminal list/read");
    expect(unfilteredLargeOutput("gh api graphql -f q=1")).toBe("gh api graphql");
    expect(unfilteredLargeOutput("cat big.log")).toBe("cat");
    expect(unfilteredLargeOutput("pytest")).toBe("pytest");
    expect(unfilteredLargeOutput("git diff | wc -l")).toBeNull();
    expect(unfilteredLargeOutput("git log -5")).toBeNull();
    expect(unfilteredLargeOutput("concatenate")).toBeNull();
  });
});

describe("spawn-test helpers (the original's test-spawn-test.sh cases)", () => {
  test("runtime_launch_command", () => {
    expect(runtimeLaunchCommand("cursor")).toEqual(["cursor-agent", "--force", "--trust"]);
    expect(runtimeLaunchCommand("cursor-agent")).toEqual(["cursor-agent", "--force", "--trust"]);
    expect(runtimeLaunchCommand("agy")).toEqual(["agy", "--dangerously-skip-permissions"]);
    expect(runtimeLaunchCommand("codex")).toEqual(["codex"]);
  });
  test("report_status_kind", () => {
    expect(["PASS", "blocked", "FAIL: A", "FAIL", "SKIP: C", "weird"].map(reportStatusKind)).toEqual(["PASS", "BLOCKED", "FAIL", "FAIL", "SKIP", "SKIP"]);
  });
});

describe("small pure pieces", () => {
  test("surface fingerprint ignores flag order", () => {
    expect(fingerprint("a", ["y", "x"], "u")).toBe(fingerprint("a", ["x", "y"], "u"));
    expect(fingerprint("a", ["x"], "u")).not.toBe(fingerprint("a", ["x"], "v"));
  });
  test("pr body headings at any level, case-insensitive, comments are empty", () => {
    const r = checkBody("### problem\n<!-- x -->\n# WHY THIS APPROACH\nok\n## What this changes\nok\n## Expected effect\nok\n", null);
    expect(r.sections.map((s) => s.state)).toEqual(["present but empty", "filled", "filled", "filled"]);
  });
});

describe("heredocs inside $(...)", () => {
  test("an apostrophe in a heredoc body inside a substitution does not break parsing", () => {
    const src = "git commit -m \"$(cat <<'EOF'\nFix it\n\nIt's done (mostly\nEOF\n)\" && echo ok";
    const p = parseShell(src, env);
    expect(p.error).toBeUndefined();
    expect(p.pipelines.map((x) => x[0]!.words[0])).toEqual(["git", "echo"]);
    expect(p.nested).toHaveLength(1);
    expect(parseShell(p.nested[0]!, env).pipelines[0]![0]!.words).toEqual(["cat"]);
  });
});

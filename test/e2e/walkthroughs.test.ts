/**
 * Every walkthrough in README.md and docs/*.md runs as documented, pasted into a shell (issue 17 §4).
 *
 * CONVENTION (for everyone writing docs): a walkthrough is a ```sh fence immediately preceded by the line
 * `<!-- walkthrough -->` (or `<!-- walkthrough: name -->`). One command per line (`\` continues a line). Each command
 * must exit 0 unless the line ends with a comment ending in `exit N` (`mogui workspace-descriptor-check ...  # exit 2`).
 * The block runs as a newcomer would run it (issue 26 §1): under `sh` in a fresh temp directory, with HOME and TMPDIR
 * inside it, as an unprivileged user (`nobody` via setpriv when we are root; skipped, with the reason printed, when
 * that is impossible), no git identity (a block that commits sets one: `git config user.name/email`), no MOGUI_HOME,
 * and only the built dist/mogui on PATH as `mogui` before /usr/bin:/bin (the fake orca and herdr come from
 * `mogui sim install-shims`). A block may not read repository files.
 */
import { describe, expect, test } from "bun:test";
import { DOC_FILES, runWalkthrough, toScript, walkthroughs, type Walkthrough } from "../helpers/walkthrough.ts";

const ALL = DOC_FILES().flatMap((f) => walkthroughs(f));

const doc = (body: string) => walkthroughs("x.md", `text\n<!-- walkthrough: t -->\n\`\`\`sh\n${body}\n\`\`\`\n`)[0]!;

describe("the walkthrough convention", () => {
  const sh = (w: Walkthrough) => Bun.spawnSync(["/bin/sh", "-c", toScript(w)], { stdout: "pipe", stderr: "pipe" });

  test("a command exits 0 unless its comment documents `exit N`; the first mismatch stops the block", () => {
    expect(sh(doc("true\nsh -c 'exit 3'    # refused, exit 3\necho \\\n  continued")).exitCode).toBe(0);
    const r = sh(doc("true\nsh -c 'exit 3'    # refused\ntouch /nonexistent/never"));
    expect(r.exitCode).toBe(97);
    expect(r.stderr.toString()).toContain("WALKTHROUGH FAIL x.md:5: exit 3, documented 0");
    expect(sh(doc("true   # exit 1")).exitCode).toBe(97);
  });

  test("only a ```sh fence right after the marker is a walkthrough", () => {
    expect(walkthroughs("x.md", "```sh\nfalse\n```\n<!-- walkthrough -->\n```sh\ntrue\n```\n").map((w) => w.lines)).toEqual([["true"]]);
    expect(() => walkthroughs("x.md", "<!-- walkthrough -->\n```console\n$ true\n```\n")).toThrow("must be followed by a ```sh fence");
  });
});

describe("the walkthrough environment is a newcomer's", () => {
  test("unprivileged, fresh HOME, no git identity, no MOGUI_HOME, only the binary (and /usr/bin:/bin) on PATH", async () => {
    const w = doc(
      [
        'test "$(id -u)" -ne 0',
        'test -z "$(ls -A "$HOME")"',
        'test -z "${MOGUI_HOME:-}" && test ! -e "$HOME/.mogui"',
        'env | grep -q "^GIT_" && exit 1 || true',
        "git init -q r && git -C r commit -q --allow-empty -m x   # no identity, exit 128",
        'test "$(command -v mogui)" = "${PATH%%:*}/mogui"',
        "! command -v orca && ! command -v herdr",
        'test "${PATH#*:}" = "/usr/bin:/bin"',
      ].join("\n"),
    );
    const r = await runWalkthrough(w);
    if (r.skipped) return void console.warn(`walkthroughs: SKIPPED: ${r.skipped}`);
    if (r.code !== 0) console.error(r.out);
    expect(r.code).toBe(0);
  });
});

describe("walkthroughs in README.md and docs/ run as pasted", () => {
  test("there are walkthroughs to run (README's worker walkthrough at least)", () => {
    expect(ALL.some((w) => w.file === "README.md")).toBe(true);
  });

  for (const w of ALL) {
    test(`${w.name} (${w.file}:${w.line})`, async () => {
      const r = await runWalkthrough(w);
      for (const n of r.notes) console.warn(`walkthroughs: ${n}`);
      if (r.skipped) {
        console.warn(`walkthroughs: SKIPPED ${w.name}: ${r.skipped}`);
        return;
      }
      if (r.code !== 0) console.error(r.out.split("\n").slice(-40).join("\n"));
      expect(r.code).toBe(0);
    });
  }
});

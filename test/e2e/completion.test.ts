// `mogui completion bash|zsh|fish` is generated from the command tree; each script is loaded in that real shell and
// completes subcommands, flags (the root's too: `mogui --<TAB>` was `bad array subscript` in bash), enum values and
// file paths where a flag or an argument takes one (issue 26 §2). bash: COMP_WORDS + the function; fish:
// `complete -C`; zsh: an interactive zsh in our own tmux server (`tmux -L newcomer-completion`), keys typed.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { binaryPath, runBinary } from "../helpers/binary.ts";
import { tempDir } from "../helpers/paths.ts";

const FILES = tempDir("completion-");
writeFileSync(join(FILES, "contract-unique.md"), "x\n");
mkdirSync(join(FILES, "dir-unique"));
const BIN = join(FILES, "bin");
mkdirSync(BIN);
symlinkSync(binaryPath(), join(BIN, "mogui"));

async function script(shell: string): Promise<string> {
  const p = join(FILES, `mogui.${shell}`);
  const r = await runBinary(["completion", shell]);
  expect(r.code).toBe(0);
  writeFileSync(p, r.stdout);
  return p;
}

async function bash(words: string[]): Promise<string[]> {
  const body = ["set -u", `source ${JSON.stringify(await script("bash"))}`, `COMP_WORDS=(${words.map((w) => JSON.stringify(w)).join(" ")})`, `COMP_CWORD=${words.length - 1}`, "_mogui", 'printf "%s\\n" "${COMPREPLY[@]}"'].join("\n");
  const p = Bun.spawn(["bash", "-c", body], { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  expect({ code, err }).toEqual({ code: 0, err: "" });
  return out.split("\n").filter(Boolean).sort();
}

async function fish(line: string): Promise<string[]> {
  const file = await script("fish");
  const p = Bun.spawn(["fish", "--no-config", "-c", `source ${file}; complete -C ${JSON.stringify(line).replaceAll("$", "\\$")}`], { stdout: "pipe", stderr: "pipe", env: { HOME: FILES, PATH: `${BIN}:/usr/bin:/bin` } });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  expect({ code, err }).toEqual({ code: 0, err: "" });
  return out
    .split("\n")
    .filter(Boolean)
    .map((l) => l.split("\t")[0]!)
    .sort();
}

const has = (exe: string) => Bun.which(exe) !== null;

describe("bash", () => {
  test("root flags (no 'bad array subscript'), commands, a group's subcommands", async () => {
    expect(await bash(["mogui", "--"])).toEqual(["--color", "--debug", "--help", "--version"]);
    expect(await bash(["mogui", "tra"])).toEqual(["tracks"]);
    expect(await bash(["mogui", "tracks", ""])).toEqual(["close", "list", "register", "update"]);
    expect(await bash(["mogui", "completion", ""])).toEqual(["bash", "fish", "zsh"]);
  });

  test("a command's flags, also after flags given before the subcommand", async () => {
    expect(await bash(["mogui", "worker-reap", "--task"])).toEqual(["--task-id"]);
    expect(await bash(["mogui", "tracks", "--json", "list", "--a"])).toEqual(["--all"]);
  });

  test("enum values, file and directory paths, --flag=value, a path argument; nothing for a free value", async () => {
    expect(await bash(["mogui", "--color", ""])).toEqual(["always", "auto", "never"]);
    expect(await bash(["mogui", "redaction-scan", "--report-format", "s"])).toEqual(["sarif"]);
    expect(await bash(["mogui", "dispatch-gate", "check", "--contract", `${FILES}/cont`])).toEqual([`${FILES}/contract-unique.md`]);
    expect(await bash(["mogui", "worker-reap", "--ledger", "=", `${FILES}/cont`])).toEqual([`${FILES}/contract-unique.md`]);
    expect(await bash(["mogui", "dispatch-collision-check", `${FILES}/cont`])).toEqual([`${FILES}/contract-unique.md`]);
    expect(await bash(["mogui", "worker-reap", "--task-id", ""])).toEqual([]);
    // A flag's value is not taken for a subcommand or an argument.
    expect(await bash(["mogui", "worker-reap", "--task-id", "tracks", "--dry"])).toEqual(["--dry-run"]);
  });
});

describe.skipIf(!has("fish"))("fish", () => {
  test("root flags, subcommands, flags, enum values, paths", async () => {
    expect(await fish("mogui --")).toEqual(["--color", "--debug", "--help", "--version"]);
    expect(await fish("mogui tracks ")).toEqual(["close", "list", "register", "update"]);
    expect(await fish("mogui tracks --json list --a")).toEqual(["--all"]);
    expect(await fish("mogui redaction-scan --report-format ")).toEqual(["json", "sarif", "text"]);
    expect(await fish(`mogui dispatch-gate check --contract ${FILES}/cont`)).toEqual([`${FILES}/contract-unique.md`]);
    expect(await fish(`mogui worker-reap --ledger=${FILES}/cont`)).toEqual([`--ledger=${FILES}/contract-unique.md`]);
    expect(await fish(`mogui fleet scan --repo ${FILES}/dir-u`)).toEqual([`${FILES}/dir-unique/`]);
  });
});

const TMUX = ["tmux", "-L", "newcomer-completion"];
const tmux = (...args: string[]) => Bun.spawnSync([...TMUX, ...args], { stdout: "pipe", stderr: "pipe" });
afterAll(() => {
  if (has("tmux")) tmux("kill-server");
});

describe.skipIf(!has("zsh") || !has("tmux"))("zsh (a real interactive zsh in tmux, keys typed)", () => {
  const screen = () => tmux("capture-pane", "-p", "-t", "z").stdout.toString();
  async function until(pred: (s: string) => boolean, ms = 15_000): Promise<string> {
    const end = Date.now() + ms;
    let s = screen();
    while (!pred(s) && Date.now() < end) {
      await Bun.sleep(150);
      s = screen();
    }
    return s;
  }
  async function tab(line: string, want: string): Promise<string> {
    tmux("send-keys", "-t", "z", "C-e", "C-u");
    tmux("send-keys", "-t", "z", "-l", line);
    tmux("send-keys", "-t", "z", "Tab");
    const s = await until((x) => x.includes(want));
    return s;
  }

  test("compinit, source <(mogui completion zsh), then TAB completes commands, flags, enum values and paths", async () => {
    const file = await script("zsh");
    tmux("kill-server");
    const env = `env -i HOME=${FILES} TERM=xterm PATH=${BIN}:/usr/bin:/bin PS1='zsh> '`;
    expect(tmux("new-session", "-d", "-s", "z", "-x", "200", "-y", "40", `${env} zsh -f`).exitCode).toBe(0);
    tmux("send-keys", "-t", "z", "-l", `autoload -Uz compinit; compinit -u -D; source ${file}; echo LOADED-$((40+2))`);
    tmux("send-keys", "-t", "z", "Enter");
    expect(await until((s) => s.includes("LOADED-42"))).toContain("LOADED-42");
    expect(await tab("mogui tra", "zsh> mogui tracks")).toContain("zsh> mogui tracks");
    expect(await tab("mogui redaction-scan --report-format sa", "--report-format sarif")).toContain("--report-format sarif");
    expect(await tab("mogui --ver", "zsh> mogui --version")).toContain("zsh> mogui --version");
    expect(await tab(`mogui dispatch-gate check --contract ${FILES}/cont`, "contract-unique.md")).toContain(`--contract ${FILES}/contract-unique.md`);
    expect(await tab(`mogui worker-reap --ledger=${FILES}/cont`, `=${FILES}/contract-unique.md`)).toContain(`--ledger=${FILES}/contract-unique.md`);
    expect(screen()).not.toContain("bad array subscript");
  }, 60_000);
});

test("an unknown shell is a usage error", async () => {
  const bad = await runBinary(["completion", "tcsh"]);
  expect(bad.code).toBe(2);
});

// `mogui completion bash` is generated from the command tree; bash loads it and completes a group and a flag.
import { describe, expect, test } from "bun:test";
import { binaryPath, runBinary } from "../helpers/binary.ts";

async function complete(words: string[]): Promise<string[]> {
  const script = [
    `source <(${JSON.stringify(binaryPath())} completion bash)`,
    `COMP_WORDS=(${words.map((w) => JSON.stringify(w)).join(" ")})`,
    `COMP_CWORD=${words.length - 1}`,
    "_mogui",
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join("\n");
  const p = Bun.spawn(["bash", "-c", script], { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  expect({ code, err }).toEqual({ code: 0, err: "" });
  return out.split("\n").filter(Boolean).sort();
}

describe("mogui completion", () => {
  test("bash: a group's subcommands, a command's flags (also after flags given before the subcommand)", async () => {
    expect(await complete(["mogui", "tracks", ""])).toEqual(["close", "list", "register", "update"]);
    expect(await complete(["mogui", "tra"])).toEqual(["tracks"]);
    expect(await complete(["mogui", "worker-reap", "--task"])).toEqual(["--task-id"]);
    expect(await complete(["mogui", "tracks", "--json", "list", "--a"])).toEqual(["--all"]);
  });

  test("zsh and fish scripts print; an unknown shell is a usage error", async () => {
    expect((await runBinary(["completion", "zsh"])).stdout).toStartWith("autoload -U +X bashcompinit");
    expect((await runBinary(["completion", "fish"])).stdout).toContain("complete -c mogui -n '__fish_seen_subcommand_from tracks' -a 'register update close list'");
    const bad = await runBinary(["completion", "tcsh"]);
    expect(bad.code).toBe(2);
  });
});

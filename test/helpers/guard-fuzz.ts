/**
 * Hostile hook inputs for product-path-guard's fuzz tests (issue 23): random shell bytes, words over 4 KB, deep
 * JSON, huge tool inputs, invalid UTF-8, NULs, carriage returns, every tool name, paths the kernel refuses to resolve
 * (symlink loops, paths through a regular file, names too long), broken JSON. Each case is raw bytes, as the hook
 * would read them from stdin.
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { prng } from "./prng.ts";

export interface FuzzWorld {
  root: string;
  product: string;
  ops: string;
  loop: string;
  file: string;
}

/** A product, an ops dir, a symlink loop and a regular file, under root. */
export function fuzzWorld(root: string): FuzzWorld {
  const product = join(root, "product");
  const ops = join(root, "ops");
  mkdirSync(join(product, "src"), { recursive: true });
  mkdirSync(ops, { recursive: true });
  writeFileSync(join(product, "README.md"), "x\n");
  const loop = join(root, "loop-a");
  symlinkSync(join(root, "loop-b"), loop);
  symlinkSync(loop, join(root, "loop-b"));
  const file = join(root, "plain-file");
  writeFileSync(file, "x");
  return { root, product, ops, loop, file };
}

const TOOLS = ["Bash", "bash", "BASH", "Edit", "Write", "write", "MultiEdit", "NotebookEdit", "Read", "Grep", "Glob", "LS", "Task", "WebFetch", "mcp__fs__write_file", "Unknown", "", "\u0000", "Bash\r"];
const SHELL_BITS = [
  " ",
  "\t",
  "\n",
  "\r",
  ";",
  "&&",
  "||",
  "|",
  "&",
  "(",
  ")",
  "{",
  "}",
  "<",
  ">",
  ">>",
  "<<",
  "<<<",
  "<<-",
  "'",
  '"',
  "`",
  "$",
  "$(",
  "${",
  "$((",
  "((",
  "))",
  "\\",
  "\\\n",
  "#",
  "~",
  "*",
  "?",
  "[",
  "]",
  "=",
  "!",
  ",",
  "..",
  "/",
  "-",
  "--",
  "\u0000",
  "\u00e9",
  "\ud83d\ude00",
  "EOF",
  "cd",
  "rm -rf",
  "echo",
  "cat",
  "git",
  "xargs",
  "env -S",
  "env -C",
  "IFS=/",
  "export",
  "function",
  "for x in",
  "do",
  "done",
  "case",
  "esac",
  "if",
  "then",
  "fi",
  "sh -c",
  "python3.11",
  "bash5",
  "ed",
  "sqlite3",
  "ln -s",
  "-o",
  "--upload-pack=",
  "-c alias.x=!",
  "sudo",
  "timeout 5",
  "nohup",
  "pushd",
  "popd",
  "cd -",
  "HOME=",
  "OLDPWD=",
  "CDPATH=",
  "$IFS",
  "${IFS}",
  "$'\\x2f'",
  "{1..9}",
  "{a,b}",
];

function pick<T>(r: ReturnType<typeof prng>, xs: readonly T[]): T {
  return r.pick(xs);
}

function randomShell(r: ReturnType<typeof prng>, w: FuzzWorld): string {
  const paths = [w.product, `${w.product}/README.md`, `${w.product}/src`, w.ops, w.loop, `${w.loop}/x`, `${w.file}/x`, `${w.root}/..`, `${w.root}/*`, "../product", "/tmp", "/"];
  const n = r.int(1, 40);
  let out = "";
  for (let i = 0; i < n; i++) {
    const k = r.int(0, 9);
    if (k < 5) out += pick(r, SHELL_BITS);
    else if (k < 8) out += pick(r, paths);
    else out += String.fromCharCode(r.int(0, 0x7f));
    if (r.chance(0.6)) out += " ";
  }
  return out;
}

function longWord(r: ReturnType<typeof prng>, w: FuzzWorld): string {
  const size = r.int(4097, 40_000);
  const kinds = [
    () => `cat ${"a".repeat(size)}`,
    () => `touch ${w.product}/${"b".repeat(size)}`,
    () => `echo x > ${w.ops}/${"c/".repeat(size / 2)}`,
    () => `ls ${`${w.loop}/`.repeat(Math.ceil(size / w.loop.length))}`,
    () => `git commit -m "$(cat <<'EOF'\n${"body line with / slashes and words\n".repeat(size / 36)}EOF\n)"`,
    () => `cat ${w.file}/${"d".repeat(size)}`,
    () => `rm -rf ${"../".repeat(size / 3)}`,
    () => `echo ${"x".repeat(size)}\u0000${w.product}`,
  ];
  return pick(r, kinds)();
}

function nest(depth: number, leaf: unknown, asArray: boolean): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = asArray ? [v] : { file_path: v, nested: v === leaf ? undefined : 1 };
  return v;
}

/** One hostile hook input as bytes. */
export function fuzzCase(r: ReturnType<typeof prng>, w: FuzzWorld): Uint8Array {
  const enc = (s: string) => new TextEncoder().encode(s);
  const tool = pick(r, TOOLS);
  const kind = r.int(0, 11);
  const cwd = r.chance(0.3) ? w.product : r.chance(0.2) ? pick(r, [w.loop, w.file, "relative", "", "/nonexistent", `${w.file}/x`]) : w.ops;
  const hook = (tool_input: unknown, extra: Record<string, unknown> = {}) => enc(JSON.stringify({ hook_event_name: "PreToolUse", tool_name: tool, tool_input, cwd, ...extra }));
  switch (kind) {
    case 0:
    case 1:
    case 2:
      return hook({ command: randomShell(r, w) });
    case 3:
      return hook({ command: longWord(r, w) });
    case 4: {
      // Deep JSON: in tool_input (where paths are looked for) or around the whole input.
      const depth = r.int(10, r.chance(0.5) ? 200 : 5000);
      if (r.chance(0.5)) return hook(nest(depth, `${w.product}/x`, r.chance(0.5)));
      return enc(`${"[".repeat(depth)}${"]".repeat(depth)}`);
    }
    case 5: {
      // A huge tool input: a command of up to 2 MiB, or many paths.
      if (r.chance(0.5)) return hook({ command: `echo ${"y ".repeat(r.int(140_000, 300_000))}> ${w.ops}/out` });
      return hook({ paths: Array.from({ length: r.int(257, 5000) }, (_, i) => `${w.ops}/f${i}`), file_path: `${w.ops}/x` });
    }
    case 6: {
      // Invalid UTF-8 and NULs, inside and outside JSON strings.
      const bytes = [0xff, 0xfe, 0xc0, 0x80, 0xed, 0xa0, 0x80, 0x00, 0xf8];
      const head = enc(`{"tool_name":"${tool.replace(/["\\\u0000-\u001f]/g, "")}","tool_input":{"command":"rm ${w.product}/`);
      const mid = Uint8Array.from({ length: r.int(1, 64) }, () => pick(r, bytes));
      const tail = enc('"}}');
      const out = new Uint8Array(head.length + mid.length + tail.length);
      out.set(head);
      out.set(mid, head.length);
      out.set(tail, head.length + mid.length);
      return out;
    }
    case 7:
      // File tools with paths the kernel refuses to resolve.
      return hook({ file_path: pick(r, [w.loop, `${w.loop}/x`, `${w.file}/x`, `${w.ops}/${"n".repeat(5000)}`, `file://%E0%A4%A`, `${w.product}/\u0000x`, "", "relative/x", `${w.ops}/${"q/".repeat(3000)}`]) });
    case 8:
      // Broken or odd JSON.
      return enc(
        pick(r, ["", " ", "{", "null", "[]", "42", '"str"', '{"tool_name":', '{"tool_name":"Bash","tool_input":"rm -rf /"}', '{"tool_name":"Bash","tool_input":{"command":["rm","-rf",1]}}', '{"tool_name":{"x":1}}', "\u0000\u0000", '{"tool_input":{}}']),
      );
    case 9:
      // Commands on paths the kernel refuses to resolve.
      return hook({
        command: `${pick(r, ["cat", "touch", "rm -rf", "echo x >", "cd", "ln -s /tmp", "git -C"])} ${pick(r, [w.loop, `${w.loop}/x`, `${w.file}/x`, `${w.file}/`, `${w.root}/${"z".repeat(300)}`, `/proc/self/cwd/${"../".repeat(50)}`])}${pick(r, ["", " && ls", "; touch x"])}`,
      });
    case 10:
      return hook({ command: randomShell(r, w) + longWord(r, w).slice(0, r.int(0, 6000)) });
    default:
      // Non-string command, odd types everywhere.
      return hook(pick(r, [{ command: 42 }, { command: null }, { command: { a: 1 } }, { command: [w.product, "rm"] }, {}, [], "rm -rf /", { file_path: 7 }, { edits: [{ file_path: `${w.product}/x` }, null] }]));
  }
}

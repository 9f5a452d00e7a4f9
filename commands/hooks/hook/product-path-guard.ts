import { defineCommand } from "../../../src/lib/command.ts";
import { decide, guardedDecision, oneLine, recordDecision, type GuardDecision } from "../../../src/hooks/session/product-path-guard.ts";
import { HOOK_ARGS, startHook } from "../../../src/hooks/session/run.ts";

export default defineCommand({
  meta: {
    name: "hook product-path-guard",
    description: [
      "PreToolUse hook (Edit|Write|MultiEdit|NotebookEdit|Bash): block writes into the product repository. Layer 3",
      "of D39: the early, explaining layer; the kernel sandbox (layer 1) carries the promise. It fails closed: any",
      "error (unreadable input, an internal error, a symlink loop, a path through a file, a command over 256 KiB, a",
      "command its lexer may read differently from bash) is exit 2 with one line, never a crash. Empty or unreadable",
      "stdin, input that is not a JSON object, and an unknown tool whose input carries a path-like key (file_path,",
      "path, paths, notebook_path, edits[].file_path ...) naming the product are blocked; tool names match",
      "case-insensitively. File tools are blocked when a target (symlinks resolved) is inside the product repo, unless MOGUI_INLINE_EDIT_OVERRIDE=1.",
      "Bash commands are read after the expansions a static reader can do exactly (VAR=value assignments of the",
      "same command, ${VAR}, $(echo|printf|pwd ...) and backticks over literals, {a,b} and {1..3}, ~). Then any",
      "command that is not read-only and has a word naming a path inside the product (relative to its cwd, through",
      "symlinks or .., inside an awk/python/node/perl/sed program, as --opt=path) is blocked, as are redirections",
      "into the product, find -exec/-delete, xargs running a writer, git mutations and command-running git -c",
      "settings, command-valued environment variables (PATH, GIT_PAGER, ...), shell functions and aliases that",
      "could shadow a read-only command. Where static reading cannot decide it blocks when the command could reach",
      "the product: globs over its parent, writes to an ancestor, an unknown cwd (cd -, popd, CDPATH, HOME=),",
      "env -S/-C, glued options (-o<path>), xargs writers, programs reading a program on stdin (ed, sqlite3,",
      "python3.11 ...), git --upload-pack/--exec/aliases, IFS changes, links to a parent, arithmetic with $(...),",
      "programs reading an environment variable the hook does not hold (os.environ, $ENV{}, process.env), ${!v}.",
      "A missing or invalid product_repo blocks everything.",
    ].join("\n"),
  },
  usage: ["hook product-path-guard [--input-file <path>] < hook.json"],
  args: HOOK_ARGS,
  notes: [
    [
      "BLOCK prints '[product-path-guard] BLOCKED: <reason>' on stderr and exits 2 (the host shows the reason to",
      "the agent); allow exits 0 silently. The product repo comes from $MOGUI_INSTANCE_RUNTIME_CONFIG, else",
      "$INSTANCE_RUNTIME_CONFIG, else $MOGUI_HOME/config/instance-runtime.json (MOGUI_PRODUCT_REPO wins per field).",
      "MOGUI_PRODUCT_GUARD_FAIL_CLOSED=1 replaces the read-only command set with the allowlist file",
      "($MOGUI_PRODUCT_GUARD_ALLOWLIST, else $MOGUI_HOME/config/product-path-guard-readonly-allowlist.txt; one",
      "command prefix per line). Every decision is a row in $MOGUI_EVENT_LOG (else $MOGUI_HOME/event-log.jsonl);",
      "an unwritable log never blocks.",
    ].join("\n"),
    [
      "LIMITS (what static reading cannot see; not a silent pass, a documented gap): running a script or program",
      "file (sh x.sh, python3 x.py, awk -f x.awk) whose text writes the product; paths computed at run time (base64",
      "-d | sh, $(cat file), string concatenation inside a program); a variable the shell already holds used in an",
      "expansion it does not evaluate (${P%/*}); binaries planted earlier on PATH; hard links made",
      "earlier; archive or patch entries; another letter case on a case-insensitive file system. Read-only commands",
      "that name the product stay allowed: cat, head, tail, grep, rg, ls, find, stat, wc, diff, sort, jq, cp out of",
      "it, tar c, sed -n, awk without output, cd <P> && git status, git status|log|diff|show ...",
    ].join("\n"),
  ],
  examples: [`echo '{"tool_name":"Bash","tool_input":{"command":"echo hi > /src/product/x"}}' | mogui hook product-path-guard`],
  exits: {
    ok: { code: 0, meaning: "allowed (nothing is written into the product repo)" },
    blocked: {
      code: 2,
      meaning: "BLOCKED: '[product-path-guard] BLOCKED: <reason>' on stderr; also a missing or invalid product_repo, empty or unreadable stdin, or input that is not a JSON object",
    },
    usage: { code: 2, meaning: "usage error (unknown flag)" },
  },
  async run({ ctx, args, fail }) {
    // Fail closed (D32, D39): Claude Code blocks only on exit 2, so every error on the way (reading, parsing,
    // judging) is a block with one line, never a crash (exit 1 would let the call run).
    let sessionKind: Parameters<typeof recordDecision>[3];
    let cwd = ctx.cwd;
    const d: GuardDecision = guardedDecision(() => {
      const call = startHook(ctx, args, "product-path-guard", "PreToolUse");
      sessionKind = call.sessionKind;
      cwd = call.cwd;
      // No input, or input that is not a JSON object, is never waved through.
      const why = call.inputError ?? (call.empty ? "empty or unreadable stdin (no hook JSON)" : undefined);
      return why ? { block: true, reason: `unreadable hook input: ${why}`, commandClass: "unparseable", targetScope: "product", toolKind: "bash" } : decide(ctx, call.input, call.cwd);
    });
    try {
      recordDecision(ctx, d, cwd, sessionKind);
    } catch {
      // The event log never changes a decision.
    }
    if (!d.block) return "ok";
    return fail("blocked", oneLine(`[product-path-guard] BLOCKED: ${d.reason}`));
  },
});

#!/usr/bin/env bun
// The composition root: the one file of src/ that may import commands/ (the command tree is injected into main).
// A direct route (commands/direct.ts: `sandbox run`) runs its command without loading the tree at all.
import { directRoute, runDirect } from "../commands/direct.ts";

// Writes go through ctx.io (src/lib/context.ts, processIo), which also keeps a vanished reader (EPIPE) quiet.
const argv = process.argv.slice(2);
const route = directRoute(argv);
process.exitCode = route ? await runDirect(route, argv) : await (await import("../commands/main.ts")).main(argv);

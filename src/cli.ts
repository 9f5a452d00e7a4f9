#!/usr/bin/env bun
// The composition root: the one file of src/ that may import commands/ (the command tree is injected into main).
import { main } from "../commands/main.ts";

// Writes go through ctx.io (src/lib/context.ts, processIo), which also keeps a vanished reader (EPIPE) quiet.
process.exitCode = await main(process.argv.slice(2));

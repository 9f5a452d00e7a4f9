/** Hidden: `mogui lineage [--json] <append|show> ...`. */
import { groupRouter } from "../../src/succession/route.ts";

export default groupRouter("lineage", ["append", "show"], "The master lineage ledger (MASTER-LINEAGE.md): append a generation, show the ledger.");

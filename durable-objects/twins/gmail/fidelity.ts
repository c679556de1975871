// Where this twin's answers knowingly differ from its vendor's published description, each with
// its reason. The one place: the schema-conformance test (test/node/fidelity/) fails on any other
// difference, and `npm run fidelity` marks these operations "divergent" in FIDELITY.md.
import type { Divergence } from "../kit/fidelity/types";

export const divergences: readonly Divergence[] = [];

package dev.ovnj.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.lb.ApplyResult;
import dev.ovnj.lb.RepairEvent;
import dev.ovnj.lb.SpecStatus;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/**
 * {@code ovnj reconcile --output json}. One document per apply (shape version 1):
 * {@code {kind:"reconcile", version, owner, exitCode, specs:[{name, state, reasons, warnings}],
 * conflicts:[TEXT...], failures:[TEXT...], problems:[LINE...]}}, where {@code state} is the
 * engine's spec state in lower case (applied, applying, pending, invalid, and any the engine adds)
 * and {@code problems} are the file's validation problems; {@code conflicts} and {@code failures}
 * are reserved and empty in version 1. With {@code --watch}, each drift repair
 * adds a line {@code {kind:"repair", version, row, what, latencyMillis}}.
 */
final class ReconcileJson {

    private ReconcileJson() {
    }

    /**
     * Builds the document of one apply.
     *
     * @param result what the engine reported
     * @param problems validation problems of the desired-state file, one line each
     * @param exitCode the exit code a one-shot reconcile returns for this result
     * @return the document
     */
    static ObjectNode of(ApplyResult result, List<String> problems, int exitCode) {
        ObjectNode root = JsonDocument.start("reconcile");
        root.put("owner", result.owner());
        root.put("exitCode", exitCode);
        ArrayNode specs = root.putArray("specs");
        for (SpecStatus s : new TreeMap<>(result.statuses()).values()) {
            ObjectNode o = specs.addObject();
            o.put("name", s.spec());
            o.put("state", s.state().name().toLowerCase(Locale.ROOT));
            JsonDocument.strings(o, "reasons", s.reasons());
            JsonDocument.strings(o, "warnings", s.warnings());
        }
        // Reserved in version 1 and always empty: the engine does not report conflicts or rejected
        // transactions per apply yet; scripts can rely on the arrays being there.
        root.putArray("conflicts");
        root.putArray("failures");
        JsonDocument.strings(root, "problems", problems);
        return root;
    }

    /**
     * Builds the line of one repair.
     *
     * @param event the engine's repair event
     * @return the document
     */
    static ObjectNode repair(RepairEvent event) {
        ObjectNode root = JsonDocument.start("repair");
        root.put("owner", event.owner());
        root.put("row", event.row());
        root.put("what", event.what());
        root.put("latencyMillis", event.latency().toNanos() / 1e6);
        return root;
    }
}

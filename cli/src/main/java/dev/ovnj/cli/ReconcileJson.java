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
 * {@code {kind:"reconcile", version, owner, exitCode, specs:[{name, state, operatingStatus, healthCheckSources, reasons, warnings}],
 * conflicts:[TEXT...], failures:[TEXT...], problems:[LINE...]}}, where {@code state} is the
 * engine's spec state in lower case (applied, applying, pending, invalid, and any the engine adds)
 * and {@code problems} are the file's validation problems; {@code operatingStatus} is the spec's
 * operating status in lower case (online, degraded, error, no_monitor, offline, unknown; a checked
 * VIP's is unknown without {@code --sb}); {@code healthCheckSources} maps each mapped backend of a checked
 * VIP ({@code 10.0.0.2:80}) to {@code {address, chosen}}: the address OVN probes it from and whether the
 * engine chose it (the file gave none); {@code conflicts} has one line per
 * conflicting row (spec, VIP, the other row's name and uuid) and {@code failures} one line per spec
 * the database rejected, with the server's error. With {@code --watch}, each drift repair adds a line
 * {@code {kind:"repair", version, row, what, latencyMillis}}, and a conflict or rejection found while
 * watching a line {@code {kind:"problem", version, owner, spec, state, lines:[TEXT...]}}.
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
            o.put("operatingStatus", s.operatingStatus().word());
            ObjectNode sources = o.putObject("healthCheckSources");
            s.healthCheckSources().forEach((backend, src) -> sources.putObject(backend).put("address", src.address())
                    .put("chosen", src.chosen()));
            JsonDocument.strings(o, "reasons", s.reasons());
            JsonDocument.strings(o, "warnings", s.warnings());
        }
        ArrayNode conflicts = root.putArray("conflicts");
        ArrayNode failures = root.putArray("failures");
        for (SpecStatus s : new TreeMap<>(result.statuses()).values()) {
            ArrayNode into = s.state() == SpecStatus.State.CONFLICT ? conflicts : failures;
            ReconcileCommand.problemLines(s).forEach(into::add);
        }
        JsonDocument.strings(root, "problems", problems);
        return root;
    }

    /**
     * Builds the line of a conflict or a rejection found while watching.
     *
     * @param status the spec's status
     * @param lines its problem lines, as the text output prints them
     * @return the document
     */
    static ObjectNode problem(SpecStatus status, List<String> lines) {
        ObjectNode root = JsonDocument.start("problem");
        root.put("owner", status.owner());
        root.put("spec", status.spec());
        root.put("state", status.state().name().toLowerCase(Locale.ROOT));
        JsonDocument.strings(root, "lines", lines);
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

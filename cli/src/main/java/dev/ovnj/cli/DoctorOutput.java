package dev.ovnj.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.lb.diagnosis.DiagnosisReport;
import dev.ovnj.lb.diagnosis.Finding;
import dev.ovnj.lb.diagnosis.SkippedCheck;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** How {@code ovnj doctor} prints a report: text for people, JSON for scripts. */
final class DoctorOutput {
    private static final ObjectMapper JSON = new ObjectMapper();

    private DoctorOutput() {
    }

    /**
     * One line per finding grouped by load balancer, the skipped checks, then
     * {@code N load balancers checked, E errors, W warnings} (and {@code , A advice} when there is scale advice).
     */
    static List<String> text(DiagnosisReport report) {
        List<String> out = new ArrayList<>();
        Map<String, List<Finding>> byLb = new LinkedHashMap<>();
        report.findings().forEach(f -> byLb.computeIfAbsent(f.lb(), k -> new ArrayList<>()).add(f));
        byLb.forEach((lb, findings) -> {
            out.add(lb + ":");
            for (Finding f : findings) {
                out.add("  " + f.severity().word() + " " + f.code().code() + f.vip().map(v -> " " + v).orElse("") + ": "
                        + f.message() + " (fix: " + f.fix() + ")");
            }
        });
        Map<String, List<String>> skippedByReason = new LinkedHashMap<>();
        for (SkippedCheck s : report.skipped()) {
            skippedByReason.computeIfAbsent(s.reason(), k -> new ArrayList<>()).add(s.code().code());
        }
        skippedByReason.forEach((reason, codes) -> out.add("skipped " + String.join(", ", codes) + ": " + reason));
        out.add(report.checked() + " load balancers checked, " + report.errors() + " errors, " + report.warnings() + " warnings"
                + (report.advice() == 0 ? "" : ", " + report.advice() + " advice"));
        return out;
    }

    /**
     * {@code {"kind":"doctor","version":1,"findings":[{"code","severity","lb","lbs","vip","message","fix"}...],"checked":N,
     * "skipped":[{"code","reason"}...]}}.
     */
    static List<String> json(DiagnosisReport report) {
        ObjectNode root = JsonDocument.start("doctor");
        ArrayNode findings = root.putArray("findings");
        for (Finding f : report.findings()) {
            ObjectNode n = findings.addObject();
            n.put("code", f.code().code());
            n.put("severity", f.severity().word());
            n.put("lb", f.lb());
            // A router's finding (no-gateway-chassis) is about every load balancer on it.
            ArrayNode lbs = n.putArray("lbs");
            f.lbs().forEach(lbs::add);
            if (f.vip().isPresent()) {
                n.put("vip", f.vip().get());
            } else {
                n.putNull("vip");
            }
            n.put("message", f.message());
            n.put("fix", f.fix());
        }
        root.put("checked", report.checked());
        ArrayNode skipped = root.putArray("skipped");
        for (SkippedCheck s : report.skipped()) {
            skipped.addObject().put("code", s.code().code()).put("reason", s.reason());
        }
        try {
            return List.of(JSON.writeValueAsString(root));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}

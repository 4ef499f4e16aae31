package dev.ovnj.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.lb.diagnosis.BackendPath;
import dev.ovnj.lb.diagnosis.PathObject;
import dev.ovnj.lb.diagnosis.PathReport;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** How {@code ovnj doctor --from} prints the paths to a VIP's backends: text for people, JSON for scripts. */
final class DoctorPathOutput {
    private static final ObjectMapper JSON = new ObjectMapper();

    private DoctorPathOutput() {
    }

    /**
     * A header naming the load balancer, VIP, client and entry; one line per backend, cause first;
     * then {@code N backends traced, D delivered, U not delivered}.
     */
    static List<String> text(PathReport r) {
        List<String> out = new ArrayList<>();
        out.add(r.loadBalancer() + " " + r.vip() + "/" + r.protocol() + " from " + r.client() + " entering " + r.datapath()
                + " by " + r.inport() + ":");
        for (BackendPath b : r.backends()) {
            out.add("  " + b.cause().code() + " " + (b.backend().isEmpty() ? "(no backends)" : b.backend()) + ": " + b.message()
                    + (b.fix().isEmpty() ? "" : " (fix: " + b.fix() + ")"));
        }
        long delivered = r.delivered();
        out.add(r.backends().size() + " backends traced, " + delivered + " delivered, " + (r.backends().size() - delivered) + " not delivered");
        return out;
    }

    /**
     * {@code {"kind":"doctor-path","version":1,"loadBalancer","vip","protocol","client","datapath","inport",
     * "backends":[{"backend","cause","delivered","direction","stage","datapath","object":{"table","name","uuid","detail"}|null,
     * "message","fix"}...],"traced":N,"delivered":D}}; a VIP without backends has one entry whose backend is null.
     */
    static List<String> json(PathReport r) {
        ObjectNode root = JsonDocument.start("doctor-path");
        root.put("loadBalancer", r.loadBalancer());
        root.put("vip", r.vip());
        root.put("protocol", r.protocol());
        root.put("client", r.client());
        root.put("datapath", r.datapath());
        root.put("inport", r.inport());
        ArrayNode backends = root.putArray("backends");
        for (BackendPath b : r.backends()) {
            ObjectNode n = backends.addObject();
            if (b.backend().isEmpty()) {
                n.putNull("backend");
            } else {
                n.put("backend", b.backend());
            }
            n.put("cause", b.cause().code());
            n.put("delivered", b.delivered());
            n.put("direction", b.direction());
            n.put("stage", b.stage());
            n.put("datapath", b.datapath());
            if (b.object().isPresent()) {
                PathObject o = b.object().get();
                n.putObject("object").put("table", o.table()).put("name", o.name()).put("uuid", o.uuid().toString())
                        .put("detail", o.detail());
            } else {
                n.putNull("object");
            }
            n.put("message", b.message());
            n.put("fix", b.fix());
        }
        root.put("traced", r.backends().size());
        root.put("delivered", r.delivered());
        try {
            return List.of(JSON.writeValueAsString(root));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}

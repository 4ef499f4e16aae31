package dev.ovnj.cli;

import dev.ovnj.lb.spec.HealthCheck;
import dev.ovnj.lb.spec.LbOptions;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.Protocol;
import dev.ovnj.lb.spec.VipSpec;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Turns a desired-state file (docs/desired-state.md) into load balancer specs. Structure is checked
 * here, strictly, because a misspelt field silently ignored would be a load balancer silently
 * wrong; values (addresses, ports, option ranges) are left to the engine's validator, whose errors
 * {@link DesiredState#problems} places in the file.
 */
final class DesiredStateReader {
    private static final Set<String> TOP = Set.of("owner", "loadBalancers", "healthCheckSources");
    private static final Set<String> LOAD_BALANCER = Set.of("name", "routers", "switches", "group", "vips", "options", "externalIds",
            "sourceRanges");
    private static final Set<String> VIP = Set.of("vip", "protocol", "backends", "healthCheck");
    private static final Set<String> BACKEND = Set.of("address", "port");
    private static final Set<String> HEALTH_CHECK = Set.of("interval", "timeout", "successCount", "failureCount", "sourceIp");
    private static final Set<String> OPTIONS = Set.of("affinityTimeout", "reject", "skipSnat", "hairpinSnatIp",
            "neighborResponder", "selectionFields", "ctFlush", "useStatelessNat", "distributed");

    private final String source;

    private DesiredStateReader(String source) {
        this.source = source;
    }

    /**
     * Reads a file.
     *
     * @param file a YAML or JSON file
     * @return its desired state
     * @throws DesiredStateException naming file, line and field of the first structural problem
     */
    static DesiredState read(Path file) {
        return new DesiredStateReader(file.toString()).state(SourceTree.read(file));
    }

    /**
     * Parses text.
     *
     * @param name the file name for messages (a {@code .json} name means JSON)
     * @param text the document
     * @return its desired state
     * @throws DesiredStateException naming file, line and field of the first structural problem
     */
    static DesiredState parse(String name, String text) {
        return new DesiredStateReader(name).state(SourceTree.parse(name, text));
    }

    private DesiredState state(SourceNode root) {
        Map<String, SourceNode> top = object(root, "the document", TOP);
        Optional<String> owner = optional(top, "owner").map(n -> string(n, "owner"));
        Map<String, List<String>> sources = new LinkedHashMap<>();
        optional(top, "healthCheckSources").ifPresent(n -> object(n, "healthCheckSources", null)
                .forEach((sw, ips) -> sources.put(sw, strings(ips, "healthCheckSources." + sw))));
        SourceNode list = top.get("loadBalancers");
        if (list == null) {
            throw error(root, "missing field \"loadBalancers\" (write loadBalancers: [] to remove all of the owner's load balancers)");
        }
        List<DeclaredSpec> declared = new ArrayList<>();
        if (list.value() != null) {
            List<SourceNode> elements = array(list, "loadBalancers");
            for (int i = 0; i < elements.size(); i++) {
                declared.add(new DeclaredSpec(loadBalancer(elements.get(i), "loadBalancers[" + i + "]", sources), elements.get(i)));
            }
        }
        return new DesiredState(source, owner, declared);
    }

    private LoadBalancerSpec loadBalancer(SourceNode node, String path, Map<String, List<String>> sources) {
        Map<String, SourceNode> f = object(node, path, LOAD_BALANCER);
        SourceNode name = f.get("name");
        if (name == null || name.value() == null) {
            throw error(node, "missing field \"name\" in " + path);
        }
        LoadBalancerSpec.Builder b = LoadBalancerSpec.builder(string(name, path + ".name"));
        optional(f, "routers").ifPresent(n -> b.routers(strings(n, path + ".routers").toArray(String[]::new)));
        optional(f, "switches").ifPresent(n -> b.switches(strings(n, path + ".switches").toArray(String[]::new)));
        optional(f, "group").ifPresent(n -> b.group(string(n, path + ".group")));
        SourceNode vips = f.get("vips");
        if (vips == null || vips.value() == null) {
            throw error(node, "missing field \"vips\" in " + path);
        }
        List<SourceNode> elements = array(vips, path + ".vips");
        for (int i = 0; i < elements.size(); i++) {
            b.vip(vip(elements.get(i), path + ".vips[" + i + "]"));
        }
        optional(f, "options").ifPresent(n -> b.options(options(n, path + ".options")));
        optional(f, "externalIds").ifPresent(n -> b.externalIds(externalIds(n, path + ".externalIds")));
        // The networks themselves are checked by the engine's validator (SpecValidator), like every
        // other value, so that the file and the library give the same error for the same range.
        optional(f, "sourceRanges").ifPresent(n -> b.sourceRanges(strings(n, path + ".sourceRanges")));
        // Unchecked: the validator's errors are placed on their lines (DesiredState#problems), all at once.
        return b.healthCheckSources(sources).buildUnchecked();
    }

    private VipSpec vip(SourceNode node, String path) {
        Map<String, SourceNode> f = object(node, path, VIP);
        SourceNode vip = f.get("vip");
        if (vip == null || vip.value() == null) {
            throw error(node, "missing field \"vip\" in " + path);
        }
        Protocol protocol = optional(f, "protocol").map(n -> {
            String text = string(n, path + ".protocol");
            try {
                return Protocol.parse(text);
            } catch (IllegalArgumentException e) {
                throw error(n, path + ".protocol: \"" + text + "\" is not one of tcp, udp, sctp");
            }
        }).orElse(Protocol.TCP);
        List<String> backends = new ArrayList<>();
        Map<String, String> ports = new LinkedHashMap<>();
        Optional<SourceNode> list = optional(f, "backends");
        if (list.isPresent()) {
            List<SourceNode> elements = array(list.get(), path + ".backends");
            for (int i = 0; i < elements.size(); i++) {
                backend(elements.get(i), path + ".backends[" + i + "]", backends, ports);
            }
        }
        VipSpec v = VipSpec.of(protocol, string(vip, path + ".vip"), backends);
        Optional<SourceNode> hc = optional(f, "healthCheck");
        if (hc.isPresent()) {
            v = v.withHealthCheck(healthCheck(hc.get(), path + ".healthCheck"));
        }
        for (Map.Entry<String, String> e : ports.entrySet()) {
            v = v.withBackendPort(e.getKey(), e.getValue());
        }
        return v;
    }

    /** A backend: {@code IP:PORT}, or {@code {address: IP:PORT, port: LOGICAL_PORT}} naming the port to health-check it through. */
    private void backend(SourceNode node, String path, List<String> backends, Map<String, String> ports) {
        if (!node.isObject()) {
            backends.add(string(node, path));
            return;
        }
        Map<String, SourceNode> f = object(node, path, BACKEND);
        SourceNode address = f.get("address");
        if (address == null || address.value() == null) {
            throw error(node, "missing field \"address\" in " + path);
        }
        String text = string(address, path + ".address");
        backends.add(text);
        Optional<SourceNode> port = optional(f, "port");
        if (port.isPresent()) {
            String host;
            try {
                host = dev.ovnj.lb.spec.Endpoint.parse(text).host();
            } catch (IllegalArgumentException e) {
                // The validator reports the bad address with its field.
                return;
            }
            ports.put(host, string(port.get(), path + ".port"));
        }
    }

    private HealthCheck healthCheck(SourceNode node, String path) {
        Map<String, SourceNode> f = object(node, path, HEALTH_CHECK);
        HealthCheck hc = HealthCheck.DEFAULTS;
        Optional<SourceNode> n = optional(f, "interval");
        if (n.isPresent()) {
            hc = hc.withInterval(integer(n.get(), path + ".interval"));
        }
        n = optional(f, "timeout");
        if (n.isPresent()) {
            hc = hc.withTimeout(integer(n.get(), path + ".timeout"));
        }
        n = optional(f, "successCount");
        if (n.isPresent()) {
            hc = hc.withCounts(integer(n.get(), path + ".successCount"), hc.failureCount());
        }
        n = optional(f, "failureCount");
        if (n.isPresent()) {
            hc = hc.withCounts(hc.successCount(), integer(n.get(), path + ".failureCount"));
        }
        n = optional(f, "sourceIp");
        if (n.isPresent()) {
            hc = hc.withSourceIp(string(n.get(), path + ".sourceIp"));
        }
        return hc;
    }

    private LbOptions options(SourceNode node, String path) {
        Map<String, SourceNode> f = object(node, path, OPTIONS);
        LbOptions o = LbOptions.DEFAULTS;
        Optional<SourceNode> affinity = optional(f, "affinityTimeout");
        if (affinity.isPresent()) {
            o = o.withAffinityTimeout(integer(affinity.get(), path + ".affinityTimeout"));
        }
        Optional<SourceNode> reject = optional(f, "reject");
        if (reject.isPresent()) {
            o = o.withReject(bool(reject.get(), path + ".reject"));
        }
        Optional<SourceNode> skipSnat = optional(f, "skipSnat");
        if (skipSnat.isPresent()) {
            o = o.withSkipSnat(bool(skipSnat.get(), path + ".skipSnat"));
        }
        Optional<SourceNode> hairpin = optional(f, "hairpinSnatIp");
        if (hairpin.isPresent()) {
            o = o.withHairpinSnatIp(string(hairpin.get(), path + ".hairpinSnatIp"));
        }
        Optional<SourceNode> responder = optional(f, "neighborResponder");
        if (responder.isPresent()) {
            o = o.withNeighborResponder(string(responder.get(), path + ".neighborResponder"));
        }
        Optional<SourceNode> ctFlush = optional(f, "ctFlush");
        if (ctFlush.isPresent()) {
            o = o.withCtFlush(bool(ctFlush.get(), path + ".ctFlush"));
        }
        Optional<SourceNode> stateless = optional(f, "useStatelessNat");
        if (stateless.isPresent()) {
            o = o.withUseStatelessNat(bool(stateless.get(), path + ".useStatelessNat"));
        }
        Optional<SourceNode> distributed = optional(f, "distributed");
        if (distributed.isPresent()) {
            o = o.withDistributed(bool(distributed.get(), path + ".distributed"));
        }
        Optional<SourceNode> selection = optional(f, "selectionFields");
        if (selection.isPresent()) {
            o = o.withSelectionFields(new LinkedHashSet<>(strings(selection.get(), path + ".selectionFields")));
        }
        return o;
    }

    private Map<String, String> externalIds(SourceNode node, String path) {
        Map<String, SourceNode> f = object(node, path, null);
        Map<String, String> out = new LinkedHashMap<>();
        f.forEach((k, v) -> {
            // external_ids values are strings in OVSDB; YAML reads team: 1 as a number, and
            // refusing that would only annoy.
            if (v.value() == null || v.isObject() || v.isArray()) {
                throw error(v, path + "." + k + " must be a string, not " + v.kind());
            }
            out.put(k, v.value() instanceof BigDecimal d ? d.toPlainString() : v.value().toString());
        });
        return out;
    }

    private Map<String, SourceNode> object(SourceNode node, String path, Set<String> allowed) {
        if (!node.isObject()) {
            throw error(node, path + " must be an object, not " + node.kind());
        }
        if (allowed != null) {
            node.fields().forEach((k, v) -> {
                if (!allowed.contains(k)) {
                    throw error(v, "unknown field \"" + k + "\" in " + path);
                }
            });
        }
        return node.fields();
    }

    /** A field that may be left out or written as null (an empty YAML value). */
    private static Optional<SourceNode> optional(Map<String, SourceNode> fields, String key) {
        return Optional.ofNullable(fields.get(key)).filter(n -> n.value() != null);
    }

    private List<SourceNode> array(SourceNode node, String path) {
        if (!node.isArray()) {
            throw error(node, path + " must be a list, not " + node.kind());
        }
        return node.elements();
    }

    private String string(SourceNode node, String path) {
        if (!(node.value() instanceof String s)) {
            throw error(node, path + " must be a string, not " + node.kind());
        }
        return s;
    }

    private List<String> strings(SourceNode node, String path) {
        List<SourceNode> elements = array(node, path);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < elements.size(); i++) {
            out.add(string(elements.get(i), path + "[" + i + "]"));
        }
        return out;
    }

    private boolean bool(SourceNode node, String path) {
        if (!(node.value() instanceof Boolean b)) {
            throw error(node, path + " must be true or false, not " + node.kind());
        }
        return b;
    }

    private int integer(SourceNode node, String path) {
        if (!(node.value() instanceof Number n) || n instanceof BigDecimal || n instanceof Double || n instanceof Float) {
            throw error(node, path + " must be a whole number, not " + node.kind());
        }
        long v = n.longValue();
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE || !(n instanceof Integer || n instanceof Long)) {
            throw error(node, path + ": " + n + " is out of range");
        }
        return (int) v;
    }

    private DesiredStateException error(SourceNode at, String message) {
        return new DesiredStateException(source + ":" + at.line() + ": " + message);
    }
}

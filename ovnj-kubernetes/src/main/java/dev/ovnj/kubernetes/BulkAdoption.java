package dev.ovnj.kubernetes;

import dev.ovnj.lb.Adoption;
import dev.ovnj.lb.plan.DesiredRow;
import dev.ovnj.lb.spec.Endpoint;
import dev.ovnj.nb.model.LoadBalancer;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.data.Row;
import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A migration in one step: which Service takes over which load balancer rows of another tool
 * (kube-dc, Kube-OVN, a script), listed first and then done, instead of one annotation written by
 * hand per Service. Each Service served by the controller (type LoadBalancer, of its class, in its
 * namespaces) keeps the address it has ({@code status.loadBalancer.ingress}, as the other tool
 * published it, or its {@value ServiceAnnotations#ADDRESSES} annotation); every VIP of a row the
 * selector covers that is one of its address:port pairs goes to it. A row whose VIPs all go to one
 * Service is adopted whole (same UUID); a row that also serves other VIPs (Kube-OVN's per-VPC
 * {@code vpc-NAME-tcp-load}) is split: the Service's VIPs leave it in the transaction that
 * creates the Service's own row, and its other VIPs stay.
 *
 * <p>{@link #apply} writes the plan as each Service's {@value ServiceAnnotations#ADDRESSES} and
 * {@value ServiceAnnotations#ADOPT} annotations; the running controller then carries it out,
 * Service by Service, each in one transaction (lb-engine's adoption).
 */
public final class BulkAdoption {
    private final KubernetesClient kube;
    private final OvsdbClient nb;
    private final ControllerSettings settings;

    /**
     * A bulk adoption.
     *
     * @param kube the Kubernetes client (used by the caller's identity: it annotates Services)
     * @param nb a started Northbound client monitoring Load_Balancer
     * @param settings the controller's settings (class, namespaces)
     */
    public BulkAdoption(KubernetesClient kube, OvsdbClient nb, ControllerSettings settings) {
        this.kube = Objects.requireNonNull(kube, "kube");
        this.nb = Objects.requireNonNull(nb, "nb");
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    /**
     * One Service's share of the migration.
     *
     * @param service {@code namespace/name}
     * @param addresses the addresses it keeps
     * @param rows each covered row it takes VIPs from, to the VIP keys it takes
     * @param split the rows of those that are split (they keep other VIPs)
     */
    public record Move(String service, List<String> addresses, Map<String, Set<String>> rows, Set<String> split) {
        /**
         * Copies.
         *
         * @param service {@code namespace/name}
         * @param addresses the addresses it keeps
         * @param rows each covered row it takes VIPs from, to the VIP keys it takes
         * @param split the rows of those that are split
         */
        public Move {
            addresses = List.copyOf(addresses);
            rows = Map.copyOf(rows);
            split = Set.copyOf(split);
        }

        /**
         * One line: {@code shop/web 168.119.17.52: splits vpc-a-tcp-load (168.119.17.52:80); adopts kube-web-dns whole}.
         *
         * @return the line
         */
        @Override
        public String toString() {
            List<String> parts = new ArrayList<>();
            new TreeMap<>(rows).forEach((row, keys) -> parts.add((split.contains(row) ? "splits " + row + " (takes " : "adopts " + row
                    + " whole (") + String.join(", ", new TreeSet<>(keys)) + ")"));
            return service + " " + String.join(",", addresses) + ": " + String.join("; ", parts);
        }
    }

    /**
     * What a selector would move.
     *
     * @param moves the Services that take VIPs, by name
     * @param unclaimed covered rows' VIPs no Service takes (they stay where they are), row to keys
     * @param unmatched why the selector covers no row, if it covers none
     */
    public record Plan(List<Move> moves, Map<String, Set<String>> unclaimed, Optional<String> unmatched) {
        /**
         * Copies.
         *
         * @param moves the Services that take VIPs
         * @param unclaimed covered rows' VIPs no Service takes
         * @param unmatched why the selector covers no row
         */
        public Plan {
            moves = List.copyOf(moves);
            unclaimed = Map.copyOf(unclaimed);
        }

        /**
         * The plan as the command prints it, one line per Service, then what stays.
         *
         * @return the lines
         */
        public List<String> lines() {
            List<String> out = new ArrayList<>();
            unmatched.ifPresent(u -> out.add("nothing to adopt: " + u));
            moves.forEach(m -> out.add(m.toString()));
            new TreeMap<>(unclaimed).forEach((row, keys) -> out.add("stays in " + row + ": " + String.join(", ", new TreeSet<>(keys))
                    + " (no Service of this controller has that address and port)"));
            return out;
        }
    }

    /**
     * Plans the migration: reads the Services and the Northbound cache, changes nothing.
     *
     * @param adoption the selector (e.g. {@code owner:kube-dc})
     * @return the plan
     */
    public Plan plan(Adoption adoption) {
        Map<String, Service> services = new TreeMap<>();
        for (Service s : services()) {
            services.put(s.getMetadata().getNamespace() + "/" + s.getMetadata().getName(), s);
        }
        // The Services' VIP keys (protocol + normalized address:port) to the Service.
        Map<String, String> vipOwner = new LinkedHashMap<>();
        Map<String, List<String>> addresses = new TreeMap<>();
        services.forEach((name, s) -> {
            List<String> ips = addressesOf(s);
            addresses.put(name, ips);
            for (String ip : ips) {
                for (ServicePort p : s.getSpec().getPorts()) {
                    String protocol = p.getProtocol() == null ? "tcp" : p.getProtocol().toLowerCase(Locale.ROOT);
                    vipOwner.put(protocol + " " + normalized(vip(ip, p.getPort())), name);
                }
            }
        });
        Map<String, Map<String, Set<String>>> taken = new TreeMap<>();
        Map<String, Set<String>> split = new TreeMap<>();
        Map<String, Set<String>> unclaimed = new TreeMap<>();
        int covered = nb.cache().read(() -> {
            int n = 0;
            for (Row row : nb.cache().table(LoadBalancer.TABLE.name()).rows()) {
                LoadBalancer lb = LoadBalancer.fromRow(row);
                if (!covers(adoption, lb, row.uuid().toString())) {
                    continue;
                }
                n++;
                String protocol = lb.protocol().map(LoadBalancer.Protocol::wireValue).orElse("tcp");
                Map<String, Set<String>> byService = new TreeMap<>();
                Set<String> rest = new TreeSet<>();
                for (String key : lb.vips().keySet()) {
                    String service = vipOwner.get(protocol + " " + normalized(key));
                    if (service == null) {
                        rest.add(key);
                    } else {
                        byService.computeIfAbsent(service, k -> new TreeSet<>()).add(key);
                    }
                }
                boolean shared = byService.size() > 1 || !rest.isEmpty();
                byService.forEach((service, keys) -> {
                    taken.computeIfAbsent(service, k -> new TreeMap<>()).put(lb.name(), keys);
                    if (shared) {
                        split.computeIfAbsent(service, k -> new TreeSet<>()).add(lb.name());
                    }
                });
                if (!rest.isEmpty()) {
                    unclaimed.put(lb.name(), rest);
                }
            }
            return n;
        });
        List<Move> moves = new ArrayList<>();
        taken.forEach((service, rows) -> moves.add(new Move(service, addresses.get(service), rows, split.getOrDefault(service, Set.of()))));
        Optional<String> unmatched = covered > 0 ? Optional.empty()
                : new AdoptionSelectors(nb).unmatched(adoption, settings.owner(), "");
        return new Plan(moves, unclaimed, covered > 0 ? Optional.empty() : unmatched.or(() -> Optional.of("the selector covers no row")));
    }

    /**
     * Carries a plan out: each Service that takes VIPs gets its addresses
     * ({@value ServiceAnnotations#ADDRESSES}, unless it names them already) and the selector
     * ({@value ServiceAnnotations#ADOPT}); the controller does the rest.
     *
     * @param adoption the selector the plan was made with
     * @param plan the plan
     * @return the Services annotated
     */
    public List<String> apply(Adoption adoption, Plan plan) {
        List<String> done = new ArrayList<>();
        for (Move m : plan.moves()) {
            String[] nsName = m.service().split("/", 2);
            kube.services().inNamespace(nsName[0]).withName(nsName[1]).edit(s -> {
                Map<String, String> a = s.getMetadata().getAnnotations() == null ? new LinkedHashMap<>()
                        : new LinkedHashMap<>(s.getMetadata().getAnnotations());
                a.putIfAbsent(ServiceAnnotations.ADDRESSES, String.join(",", m.addresses()));
                a.put(ServiceAnnotations.ADOPT, adoption.toString());
                s.getMetadata().setAnnotations(a);
                return s;
            });
            done.add(m.service());
        }
        return done;
    }

    private List<Service> services() {
        List<Service> all = new ArrayList<>();
        if (settings.namespaces().isEmpty()) {
            all.addAll(kube.services().inAnyNamespace().list().getItems());
        } else {
            settings.namespaces().forEach(ns -> all.addAll(kube.services().inNamespace(ns).list().getItems()));
        }
        return all.stream().filter(s -> s.getSpec() != null && "LoadBalancer".equals(s.getSpec().getType())
                && Objects.equals(settings.loadBalancerClass().orElse(null), s.getSpec().getLoadBalancerClass())).toList();
    }

    /** The addresses a Service keeps: its annotation's, else those published in its status. */
    private static List<String> addressesOf(Service s) {
        List<String> requested = ServiceAnnotations.requestedAddresses(s);
        if (!requested.isEmpty()) {
            return requested;
        }
        if (s.getStatus() == null || s.getStatus().getLoadBalancer() == null || s.getStatus().getLoadBalancer().getIngress() == null) {
            return List.of();
        }
        return s.getStatus().getLoadBalancer().getIngress().stream().map(LoadBalancerIngress::getIp).filter(Objects::nonNull).toList();
    }

    private static boolean covers(Adoption adoption, LoadBalancer lb, String uuid) {
        if (adoption.rows().contains(lb.name()) || adoption.rows().contains(uuid)) {
            return true;
        }
        Optional<String> owner = Optional.ofNullable(lb.externalIds().get(DesiredRow.OWNER_KEY));
        if (owner.isEmpty() && adoption.unowned()) {
            return true;
        }
        return Adoption.ownerNames(owner, lb.externalIds()).stream().anyMatch(adoption.owners()::contains);
    }

    private static String vip(String ip, int port) {
        return ip.contains(":") ? "[" + ip + "]:" + port : ip + ":" + port;
    }

    private static String normalized(String vip) {
        try {
            return Endpoint.normalize(vip);
        } catch (IllegalArgumentException e) {
            return vip;
        }
    }
}

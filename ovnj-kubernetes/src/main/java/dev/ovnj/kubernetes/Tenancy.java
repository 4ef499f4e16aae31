package dev.ovnj.kubernetes;

import dev.ovnj.nb.ip.IpAddresses;
import dev.ovnj.nb.ip.IpFamily;
import dev.ovnj.nb.ip.IpNetwork;
import dev.ovnj.nb.ip.IpRange;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Who may put what where: the one place where the administrator's grants are applied to what a
 * Service asks for ({@link ServiceIntent}). A tenant (a namespace's owner) chooses nothing the
 * administrator did not grant:
 *
 * <ul>
 *   <li>a Service gets a pool of its namespace ({@link EipPool} {@code spec.namespaces} or
 *       {@code namespaceSelector}): the one it
 *       names, else the pool holding the address it asks for, else the first pool by {@code priority}
 *       (then name) with {@code autoAssign} whose {@code serviceSelector} matches it; a pool of other
 *       namespaces is {@value ConditionReasons#PLACEMENT_NOT_ALLOWED};</li>
 *   <li>without such a pool, the command line's router serves it only when its namespace is one of
 *       {@link ControllerSettings#routerNamespaces()}; otherwise it waits,
 *       {@value ConditionReasons#NO_POOL}, holding nothing;</li>
 *   <li>{@value ServiceAnnotations#ROUTER}, {@value ServiceAnnotations#SWITCH} and
 *       {@value ServiceAnnotations#GROUP} may name only the pool's own router, switch or group, or
 *       one its {@code spec.allowedAttachments} lists ({@code none} as switch or group always);
 *       anything else is {@value ConditionReasons#PLACEMENT_NOT_ALLOWED};</li>
 *   <li>a requested address must lie in the Service's pool (or, on the command line's router, in
 *       its port's network), and must not be reserved ({@link ReservedAddresses}: a router port's
 *       address, a route's next hop, a NAT address, an excluded one) nor a network or broadcast
 *       address: else {@value ConditionReasons#ADDRESS_INVALID}, naming why;</li>
 *   <li>an address once given never moves: a Service holding one stays where it is, whatever
 *       changed in the pools since (its condition notes why).</li>
 * </ul>
 *
 * <p>Pure: every fact comes in as a value ({@link Facts}), so each rule has a unit test.
 */
final class Tenancy {
    private final ControllerSettings settings;

    Tenancy(ControllerSettings settings) {
        this.settings = settings;
    }

    /**
     * What the decision is made from, read by the caller.
     *
     * @param pools every pool, checked ({@link EipPools#states()})
     * @param held the Service's claims by port
     * @param reserved what the database and the command line reserve ({@link EipPools#reserved()})
     * @param routerNetworks the networks of the command line's external port as written (empty without one)
     * @param stayOn where a Service holding an address on a port no valid pool serves stays: its current attachment there
     * @param namespaceLabels the labels of a namespace, asked only when a pool has a {@code namespaceSelector}
     */
    record Facts(Map<String, EipPools.State> pools, Map<String, List<InetAddress>> held, ReservedAddresses reserved,
                 List<String> routerNetworks, Function<String, ControllerSettings> stayOn,
                 Function<String, Map<String, String>> namespaceLabels) {
    }

    /** The verdict on a Service's placement. */
    sealed interface Decision permits Granted, Refused {
    }

    /**
     * The Service may go there.
     *
     * @param placement the router, attachment, external port and pool
     * @param attachment where its load balancer is attached, with what it names that was granted
     * @param exclusions what allocation must not give it (outside its pool, and reserved)
     */
    record Granted(EipPools.Placement placement, ServiceAnnotations.Attachment attachment, List<IpRange> exclusions) implements Decision {
    }

    /**
     * The Service may not: nothing is written for it, and it holds no address it does not serve on.
     *
     * @param reason the condition's reason ({@link ConditionReasons})
     * @param message why, naming the annotation or address
     * @param pool the pool it waits for, if any
     */
    record Refused(String reason, String message, Optional<String> pool) implements Decision {
    }

    /**
     * Decides where a Service lands and checks what it asks for against the grants.
     *
     * @param intent what the Service asks for
     * @param facts the pools, its claims and the reservations
     * @return granted or refused
     */
    Decision decide(ServiceIntent intent, Facts facts) {
        if (intent.invalid().isPresent()) {
            return new Refused(ConditionReasons.INVALID_ANNOTATION, intent.invalid().get(), Optional.empty());
        }
        Optional<String> malformed = intent.requested().stream().filter(l -> intent.requestedIps().stream()
                .noneMatch(ip -> sameLiteral(l, ip))).findFirst();
        if (malformed.isPresent()) {
            return new Refused(ConditionReasons.ADDRESS_INVALID, "requested address \"" + malformed.get() + "\" is not an IP address",
                    Optional.empty());
        }
        EipPools.Placement placement;
        try {
            placement = place(intent, facts);
        } catch (RefusedException e) {
            return e.refused;
        }
        Optional<EipPools.State> pool = placement.pool().map(facts.pools()::get);
        Optional<Refused> attachment = attachmentRefusal(intent, placement, pool);
        if (attachment.isPresent()) {
            return attachment.get();
        }
        ReservedAddresses reserved = pool.map(p -> EipPools.reservedFor(p, facts.reserved())).orElse(facts.reserved());
        List<String> networks = pool.map(EipPools.State::networks).orElse(placement.target().externalPort().equals(settings.externalPort())
                ? facts.routerNetworks() : List.of());
        List<InetAddress> held = facts.held().values().stream().flatMap(List::stream).toList();
        for (InetAddress ip : intent.requestedIps()) {
            if (held.contains(ip)) {
                continue;
            }
            Optional<String> why = reserved.why(ip).or(() -> networkOrBroadcast(ip, networks));
            if (why.isPresent()) {
                return new Refused(ConditionReasons.ADDRESS_INVALID, "requested address " + IpAddresses.format(ip) + " is reserved: "
                        + why.get(), placement.pool());
            }
            if (placement.addresses().isEmpty() && !networks.isEmpty() && !inNetworks(ip, networks)) {
                return new Refused(ConditionReasons.ADDRESS_INVALID, "requested address " + IpAddresses.format(ip)
                        + " is not in the networks " + networks + " of Logical_Router_Port " + placement.target().externalPort().orElse("")
                        + " nor in an EipPool namespace " + intent.namespace() + " may use", Optional.empty());
            }
            if (placement.addresses().isPresent() && !placement.addresses().get().contains(ip)) {
                return new Refused(ConditionReasons.ADDRESS_INVALID, "requested address " + IpAddresses.format(ip)
                        + " is not in the addresses of EipPool " + placement.pool().orElseThrow() + " (" + placement.addresses().get()
                        + ") nor of another EipPool namespace " + intent.namespace() + " may use", placement.pool());
            }
        }
        List<IpRange> exclusions = new ArrayList<>(placement.exclusions());
        exclusions.addAll(reserved.asRanges());
        return new Granted(placement, attachment(intent, placement.target()), List.copyOf(exclusions));
    }

    /** The attachment: the placement's, with what the Service names (checked already) in its place. */
    private static ServiceAnnotations.Attachment attachment(ServiceIntent intent, ControllerSettings target) {
        return new ServiceAnnotations.Attachment(intent.router().orElse(target.router().orElseThrow()),
                override(intent.logicalSwitch(), target.logicalSwitch()), override(intent.group(), target.group()));
    }

    private static Optional<String> override(Optional<String> named, Optional<String> configured) {
        if (named.isEmpty()) {
            return configured;
        }
        return named.get().equals(ServiceIntent.NONE) ? Optional.empty() : named;
    }

    /** A router, switch or group the Service names that its placement does not grant. */
    private Optional<Refused> attachmentRefusal(ServiceIntent intent, EipPools.Placement placement, Optional<EipPools.State> pool) {
        ControllerSettings target = placement.target();
        EipPool.Attachments granted = pool.map(p -> p.pool().getSpec().attachmentsOrNone()).orElse(EipPool.Attachments.NONE);
        String where = pool.map(p -> "EipPool " + p.name()).orElse("the command line's router");
        String grants = pool.map(p -> "; an administrator grants it in EipPool " + p.name() + " spec.allowedAttachments")
                .orElse("; only an EipPool's spec.allowedAttachments can grant it");
        if (intent.router().isPresent() && !intent.router().equals(target.router()) && !granted.routers().contains(intent.router().get())) {
            return Optional.of(new Refused(ConditionReasons.PLACEMENT_NOT_ALLOWED, ServiceAnnotations.ROUTER + ": router "
                    + intent.router().get() + " is not granted to the Services of " + where + grants, placement.pool()));
        }
        Optional<String> sw = intent.logicalSwitch().filter(s -> !s.equals(ServiceIntent.NONE));
        if (sw.isPresent() && !sw.equals(target.logicalSwitch()) && !granted.switches().contains(sw.get())) {
            return Optional.of(new Refused(ConditionReasons.PLACEMENT_NOT_ALLOWED, ServiceAnnotations.SWITCH + ": switch "
                    + sw.get() + " is not granted to the Services of " + where + grants, placement.pool()));
        }
        Optional<String> group = intent.group().filter(g -> !g.equals(ServiceIntent.NONE));
        if (group.isPresent() && !group.equals(target.group()) && !granted.groups().contains(group.get())) {
            return Optional.of(new Refused(ConditionReasons.PLACEMENT_NOT_ALLOWED, ServiceAnnotations.GROUP + ": group "
                    + group.get() + " is not granted to the Services of " + where + grants, placement.pool()));
        }
        return Optional.empty();
    }

    /** The Service's pool (or the command line's port), unless it holds an address elsewhere, where it then stays. */
    private EipPools.Placement place(ServiceIntent intent, Facts facts) throws RefusedException {
        Map<String, List<InetAddress>> held = facts.held();
        Optional<EipPools.State> chosen;
        String refused = "";
        try {
            chosen = choose(intent, facts.pools(), facts.namespaceLabels());
            if (chosen.isEmpty() && held.isEmpty() && !settings.routerServes(intent.namespace())) {
                throw new RefusedException(new Refused(ConditionReasons.NO_POOL, "no EipPool serves namespace " + intent.namespace()
                        + (settings.router().isPresent() ? " and the command line's router " + settings.router().get()
                        + " serves only " + settings.routerNamespaces() : " and the controller has no router of its own")
                        + ": waiting, without an address, for an administrator's EipPool", Optional.empty()));
            }
        } catch (RefusedException e) {
            if (held.isEmpty()) {
                throw e;
            }
            // The pool it names is gone or no longer its namespace's: what it holds stays.
            chosen = Optional.empty();
            refused = e.refused.message() + "; ";
        }
        String port = chosen.map(s -> s.pool().getSpec().externalPort()).orElse(settings.externalPort().orElse(""));
        boolean here = refused.isEmpty() && (held.isEmpty() || held.containsKey(port));
        if (chosen.isEmpty() && here) {
            return new EipPools.Placement(Optional.empty(), settings, Optional.empty(), List.of(), List.of(), List.of());
        }
        if (chosen.isPresent() && chosen.get().valid() && here) {
            return onPool(chosen.get(), held.getOrDefault(port, List.of()), List.of());
        }
        if (held.isEmpty()) {
            EipPools.State pool = chosen.orElseThrow();
            throw new RefusedException(new Refused(ConditionReasons.POOL_INVALID, "EipPool " + pool.name()
                    + " is Invalid and gives out no address: " + pool.invalid().orElseThrow(), Optional.of(pool.name())));
        }
        // The Service holds its address elsewhere, or on the port of a pool now invalid: it stays.
        String where = held.keySet().iterator().next();
        List<InetAddress> addresses = held.get(where);
        String why = refused + chosen.filter(s -> !s.valid())
                .map(s -> "EipPool " + s.name() + " is Invalid (" + s.invalid().orElseThrow() + "); ").orElse("");
        String to = chosen.map(s -> " to EipPool " + s.name())
                .orElse(refused.isEmpty() ? settings.externalPort().map(p -> " to " + p).orElse("") : "");
        String note = why + "keeps " + String.join(", ", addresses.stream().map(IpAddresses::format).toList())
                + " on Logical_Router_Port " + where + " (an address once given is not moved; re-create the Service to move it" + to + ")";
        // A valid pool on that port whose addresses hold it keeps it as its own; otherwise it stays
        // where its rows are attached now.
        Optional<EipPools.State> there = facts.pools().values().stream().filter(s -> s.valid()
                && s.pool().getSpec().externalPort().equals(where)
                && addresses.stream().allMatch(ip -> s.addresses().orElseThrow().contains(ip))).findFirst();
        if (there.isPresent()) {
            return onPool(there.get(), addresses, List.of(note));
        }
        if (settings.externalPort().filter(where::equals).isPresent()) {
            return new EipPools.Placement(Optional.empty(), settings, Optional.empty(), List.of(), List.of(), List.of(note));
        }
        return new EipPools.Placement(Optional.empty(), facts.stayOn().apply(where), Optional.empty(), List.of(), addresses,
                List.of(note + "; no valid EipPool serves that port now"));
    }

    private static EipPools.Placement onPool(EipPools.State pool, List<InetAddress> held, List<String> notes) {
        PoolAddresses addresses = pool.addresses().orElseThrow();
        List<InetAddress> outside = held.stream().filter(ip -> !addresses.contains(ip)).toList();
        List<String> all = new ArrayList<>(notes);
        if (!outside.isEmpty() && notes.isEmpty()) {
            all.add("keeps " + String.join(", ", outside.stream().map(IpAddresses::format).toList()) + ", outside the addresses of EipPool "
                    + pool.name() + " (" + addresses + "): an address once given is not moved");
        }
        return new EipPools.Placement(Optional.of(pool.name()), pool.target().orElseThrow(), Optional.of(addresses),
                addresses.exclusions(pool.networks()), outside, all);
    }

    /**
     * The pool a Service names or gets, empty for the command line's port: the named one (its
     * namespace's, else refused); else the first pool of its namespace holding the first address it
     * asks for; else the first by priority and name with {@code autoAssign} whose selector matches.
     */
    Optional<EipPools.State> choose(ServiceIntent intent, Map<String, EipPools.State> pools,
                                    Function<String, Map<String, String>> namespaceLabels) throws RefusedException {
        if (intent.pool().isPresent()) {
            EipPools.State s = pools.get(intent.pool().get());
            if (s == null) {
                throw new RefusedException(new Refused(ConditionReasons.POOL_NOT_FOUND, EipPools.ANNOTATION + ": no EipPool named "
                        + intent.pool().get(), Optional.empty()));
            }
            if (!mayUse(s, intent.namespace(), namespaceLabels)) {
                throw new RefusedException(new Refused(ConditionReasons.PLACEMENT_NOT_ALLOWED, EipPools.ANNOTATION + ": EipPool " + s.name()
                        + " serves the namespaces " + s.pool().getSpec().namespacesOrAll()
                        + (s.pool().getSpec().namespaceSelector() != null ? " and those its namespaceSelector matches" : "")
                        + " only, not " + intent.namespace(),
                        Optional.empty()));
            }
            return Optional.of(s);
        }
        List<EipPools.State> ordered = pools.values().stream().filter(s -> s.pool().getSpec() != null
                        && mayUse(s, intent.namespace(), namespaceLabels))
                .sorted(Comparator.comparing((EipPools.State s) -> Optional.ofNullable(s.pool().getSpec().priority()).orElse(Integer.MAX_VALUE))
                        .thenComparing(EipPools.State::name))
                .toList();
        if (!intent.requestedIps().isEmpty()) {
            InetAddress first = intent.requestedIps().get(0);
            Optional<EipPools.State> holding = ordered.stream().filter(s -> s.addresses().filter(a -> a.contains(first)).isPresent()).findFirst();
            if (holding.isPresent()) {
                return holding;
            }
        }
        return ordered.stream().filter(s -> s.pool().getSpec().assignsAutomatically() && selects(s.pool().getSpec().serviceSelector(),
                intent.labels())).findFirst();
    }

    /**
     * Whether a namespace may use a pool: the pool names neither namespaces nor a selector (every
     * namespace may), or lists it, or its {@code namespaceSelector} matches its labels.
     */
    static boolean mayUse(EipPools.State s, String namespace, Function<String, Map<String, String>> namespaceLabels) {
        if (s.pool().getSpec() == null) {
            return true;
        }
        List<String> namespaces = s.pool().getSpec().namespacesOrAll();
        LabelSelector selector = s.pool().getSpec().namespaceSelector();
        if (namespaces.isEmpty() && selector == null) {
            return true;
        }
        return namespaces.contains(namespace) || selector != null && selects(selector, namespaceLabels.apply(namespace));
    }

    /** Kubernetes' label selector semantics: every matchLabels entry and every expression holds; none: everything. */
    static boolean selects(LabelSelector selector, Map<String, String> labels) {
        if (selector == null) {
            return true;
        }
        if (selector.getMatchLabels() != null
                && !selector.getMatchLabels().entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())))) {
            return false;
        }
        if (selector.getMatchExpressions() != null) {
            for (LabelSelectorRequirement r : selector.getMatchExpressions()) {
                List<String> values = r.getValues() == null ? List.of() : r.getValues();
                String value = labels.get(r.getKey());
                boolean ok = switch (r.getOperator()) {
                    case "In" -> value != null && values.contains(value);
                    case "NotIn" -> value == null || !values.contains(value);
                    case "Exists" -> value != null;
                    case "DoesNotExist" -> value == null;
                    default -> false;
                };
                if (!ok) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Whether a network of the address's family holds it; true when the port has none of that
     * family (the address resolution then says the Service is not served in that family).
     */
    private static boolean inNetworks(InetAddress ip, List<String> networks) {
        boolean family = false;
        for (String written : networks) {
            try {
                IpNetwork n = IpNetwork.parse(written);
                if (n.family() == IpFamily.of(ip)) {
                    family = true;
                    if (n.contains(ip)) {
                        return true;
                    }
                }
            } catch (IllegalArgumentException malformed) {
                // Another client's malformed network holds nothing.
            }
        }
        return !family;
    }

    /** An IPv4 network's own or broadcast address, said in words. */
    private static Optional<String> networkOrBroadcast(InetAddress ip, List<String> networks) {
        for (String written : networks) {
            try {
                IpNetwork n = IpNetwork.parse(written);
                if (n.family() == IpFamily.IPV4 && n.prefixLength() < 31 && n.contains(ip)) {
                    if (ip.equals(n.networkAddress())) {
                        return Optional.of("the network address of " + n.cidr());
                    }
                    if (ip.equals(n.lastAddress())) {
                        return Optional.of("the broadcast address of " + n.cidr());
                    }
                }
            } catch (IllegalArgumentException malformed) {
                // Another client's malformed network says nothing.
            }
        }
        return Optional.empty();
    }

    private static boolean sameLiteral(String literal, InetAddress ip) {
        try {
            return IpAddresses.parse(literal).equals(ip);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** A refusal on its way out of the placement. */
    static final class RefusedException extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient Refused refused;

        RefusedException(Refused refused) {
            super(refused.message(), null, false, false);
            this.refused = refused;
        }

        Refused refused() {
            return refused;
        }
    }
}

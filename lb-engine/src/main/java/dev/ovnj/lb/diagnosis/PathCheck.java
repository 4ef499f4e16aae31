package dev.ovnj.lb.diagnosis;

import dev.ovnj.lb.spec.Endpoint;
import dev.ovnj.nb.model.LoadBalancer;
import dev.ovnj.nb.model.LogicalRouterPort;
import dev.ovnj.sb.model.PortBinding;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Why does this client not reach this VIP: the packets a client sends to a VIP traced through the
 * logical pipelines with {@code ovn-trace}, once per backend ({@code --lb-dst}), request and reply,
 * and each outcome pinned on the Northbound row responsible (the flow's {@code stage-hint}) or, for
 * a missing route, on the router. Read-only.
 *
 * <p>The request enters the router the VIP is on by its gateway port (or the port whose network
 * holds the VIP), or by a given logical switch or router port. It counts as delivered when it is
 * output to the backend's logical port, that port is bound to a chassis, and the backend's reply is
 * output back where the client is (the entry port, its {@code cr-} port, or the client's own port).
 *
 * <pre>{@code
 * PathReport r = PathCheck.builder("172.16.0.100:80", OvnTrace.of(sbRemote)).from("192.0.2.1").build()
 *         .run(NorthboundFacts.read(nb), SouthboundFacts.read(sb), PathFacts.read(nb, sb));
 * }</pre>
 */
public final class PathCheck {
    /** The client's source port when none is given: the first of the dynamic range (RFC 6335). */
    public static final int DEFAULT_CLIENT_PORT = 49152;
    private static final List<String> NEW = List.of("--ct=new", "--ct=new", "--ct=new", "--ct=new");
    private static final List<String> REPLY = List.of("--ct=est,rpl", "--ct=est,rpl", "--ct=est,rpl", "--ct=est,rpl");
    private static final String CLIENT_MAC = "02:00:00:00:00:01";
    private static final java.util.regex.Pattern SNAT = java.util.regex.Pattern.compile("ct_snat(?:_in_czone)?\\(([^)]+)\\)");

    private final Endpoint vip;
    private final Optional<String> protocol;
    private final Optional<Endpoint> from;
    private final Optional<String> fromPort;
    private final Tracer tracer;

    private PathCheck(Builder b) {
        this.vip = b.vip;
        this.protocol = Optional.ofNullable(b.protocol);
        this.from = Optional.ofNullable(b.from);
        this.fromPort = Optional.ofNullable(b.fromPort);
        this.tracer = b.tracer;
        if (from.isEmpty() && fromPort.isEmpty()) {
            throw new IllegalArgumentException("give the client: an address (--from) or a logical port (--from-port)");
        }
        if (from.isPresent() && from.get().isIpv6() != vip.isIpv6()) {
            throw new IllegalArgumentException("the client " + from.get().host() + " and the VIP " + vip + " are not of one IP family");
        }
    }

    /**
     * Starts configuring a check.
     *
     * @param vip the VIP, {@code IP:PORT} or {@code [IPv6]:PORT}
     * @param tracer runs {@code ovn-trace}
     * @return a builder
     * @throws IllegalArgumentException when the VIP is not an address with a port
     */
    public static Builder builder(String vip, Tracer tracer) {
        return new Builder(vip, tracer);
    }

    /**
     * Traces the client's packets to the VIP once per backend.
     *
     * @param nb the Northbound facts
     * @param sb the Southbound facts
     * @param path the facts for pinning flows on rows
     * @return the report
     * @throws IllegalArgumentException when no load balancer has the VIP, or the client or its port cannot be placed
     * @throws Tracer.TraceException when {@code ovn-trace} fails
     */
    public PathReport run(NorthboundFacts nb, SouthboundFacts sb, PathFacts path) {
        Objects.requireNonNull(nb, "nb");
        Objects.requireNonNull(sb, "sb");
        Objects.requireNonNull(path, "path");
        Map.Entry<UUID, LoadBalancer> lb = balancer(nb);
        String proto = NorthboundFacts.protocol(lb.getValue());
        List<String> backends = backendsOf(lb.getValue());
        Entry entry = entry(nb, lb.getKey(), path);
        Endpoint client = client(path);
        String clientText = client.toString();
        Walk walk = new Walk(nb, path, lb.getValue(), backends, entry, client, proto);
        List<BackendPath> out = new ArrayList<>();
        Optional<BackendPath> noChassis = entry.gatewayPort().flatMap(p -> unresidentGateway(sb, entry, p));
        if (noChassis.isPresent()) {
            for (String b : backends.isEmpty() ? List.of("") : backends) {
                out.add(withBackend(noChassis.get(), b));
            }
        } else if (backends.isEmpty()) {
            TracedPacket t = TracedPacket.parse(tracer.traceDetailed(entry.datapath(), walk.request(), NEW));
            out.add(walk.classify("", t, "request", vip.host()));
        } else {
            for (String b : backends) {
                out.add(walk.backend(b, sb));
            }
        }
        return new PathReport(lb.getValue().name(), vip.toString(), proto, clientText, entry.datapath(), entry.inport(), out);
    }

    private static BackendPath withBackend(BackendPath p, String backend) {
        return new BackendPath(backend, p.cause(), p.direction(), p.stage(), p.datapath(), p.object(), p.message(), p.fix());
    }

    private Map.Entry<UUID, LoadBalancer> balancer(NorthboundFacts nb) {
        List<Map.Entry<UUID, LoadBalancer>> found = new ArrayList<>();
        for (Map.Entry<UUID, LoadBalancer> e : nb.balancers().entrySet()) {
            boolean hasVip = e.getValue().vips().keySet().stream().anyMatch(v -> Endpoints.canonical(v).equals(vip.toString()));
            if (hasVip && (protocol.isEmpty() || protocol.get().equals(NorthboundFacts.protocol(e.getValue())))) {
                found.add(e);
            }
        }
        if (found.isEmpty()) {
            throw new IllegalArgumentException("no load balancer has VIP " + vip + protocol.map(p -> " for " + p).orElse("")
                    + " (ovn-nbctl lb-list lists the VIPs)");
        }
        Set<String> protocols = new java.util.TreeSet<>();
        found.forEach(e -> protocols.add(NorthboundFacts.protocol(e.getValue())));
        if (protocols.size() > 1) {
            throw new IllegalArgumentException("VIP " + vip + " is served for " + String.join(" and ", protocols) + "; choose one with --protocol");
        }
        // Of several rows with the VIP (a conflict doctor reports), the first one that is attached somewhere.
        return found.stream().filter(e -> !nb.routersOf(e.getKey()).isEmpty() || !nb.switchesOf(e.getKey()).isEmpty())
                .findFirst().orElse(found.get(0));
    }

    private List<String> backendsOf(LoadBalancer lb) {
        for (Map.Entry<String, String> e : lb.vips().entrySet()) {
            if (Endpoints.canonical(e.getKey()).equals(vip.toString())) {
                return Endpoints.backends(e.getValue());
            }
        }
        return List.of();
    }

    private Entry entry(NorthboundFacts nb, UUID lb, PathFacts path) {
        if (fromPort.isPresent()) {
            String name = fromPort.get();
            Optional<PathFacts.RouterPortRef> rp = path.routerPort(name);
            if (rp.isPresent()) {
                LogicalRouterPort p = rp.get().port();
                return new Entry(rp.get().router(), name, p.mac(), "", RouterEntry.isGateway(p) ? Optional.of(rp.get()) : Optional.empty());
            }
            PathFacts.SwitchPort sp = path.switchPort(name).orElseThrow(() -> new IllegalArgumentException(
                    "--from-port " + name + " is no logical switch port and no logical router port"));
            return new Entry(sp.switchName(), name, sp.gatewayMac().isEmpty() ? "02:00:00:00:00:02" : sp.gatewayMac(),
                    sp.mac(), Optional.empty());
        }
        for (UUID r : nb.routersOf(lb)) {
            Optional<LogicalRouterPort> p = RouterEntry.ingressPort(nb, nb.router(r), vip);
            if (p.isPresent()) {
                PathFacts.RouterPortRef ref = path.routerPort(p.get().name()).orElseThrow();
                return new Entry(ref.router(), p.get().name(), p.get().mac(), "",
                        RouterEntry.isGateway(p.get()) ? Optional.of(ref) : Optional.empty());
            }
        }
        throw new IllegalArgumentException("the load balancer of VIP " + vip + " is on no router with ports, so no packet enters from"
                + " outside; name the client's logical port with --from-port");
    }

    private Endpoint client(PathFacts path) {
        if (from.isPresent()) {
            Endpoint f = from.get();
            return f.hasPort() ? f : Endpoint.of(f.address(), DEFAULT_CLIENT_PORT);
        }
        PathFacts.SwitchPort sp = path.switchPort(fromPort.get()).orElseThrow(() -> new IllegalArgumentException(
                "--from-port " + fromPort.get() + " is a router port: give the client's address with --from"));
        for (String ip : sp.ips()) {
            Endpoint a = Endpoint.address(ip);
            if (a.isIpv6() == vip.isIpv6()) {
                return Endpoint.of(a.address(), DEFAULT_CLIENT_PORT);
            }
        }
        throw new IllegalArgumentException("port " + sp.name() + " has no " + (vip.isIpv6() ? "IPv6" : "IPv4")
                + " address; give the client's address with --from");
    }

    private static Optional<BackendPath> unresidentGateway(SouthboundFacts sb, Entry entry, PathFacts.RouterPortRef port) {
        String cr = "cr-" + port.port().name();
        Optional<PortBinding> binding = sb.binding(cr);
        if (binding.isPresent() && binding.get().chassis().isPresent()) {
            return Optional.empty();
        }
        PathObject object = new PathObject("Logical_Router_Port", port.port().name(), port.uuid(), "gateway port of router " + port.router());
        String why = binding.isEmpty() ? "the Southbound database has no Port_Binding " + cr
                : "Port_Binding " + cr + " is bound to no chassis";
        return Optional.of(new BackendPath("", PathCause.NO_CHASSIS, "request", "", entry.datapath(), Optional.of(object),
                "the client's packets enter router " + port.router() + " by gateway port " + port.port().name() + ", but " + why
                        + ": no chassis receives them (ovn-trace assumes one does)",
                "check the gateway chassis of " + port.port().name() + " (ovn-nbctl lrp-get-gateway-chassis " + port.port().name()
                        + "): its ovn-controller must be running and registered"));
    }

    /**
     * Where the client's packets enter.
     *
     * @param datapath the router or switch
     * @param inport the port
     * @param ethDst the destination MAC of the client's packets (the router port's)
     * @param ethSrc the client's MAC when it is a switch port, else empty
     * @param gatewayPort the entry port when it is a distributed gateway port
     */
    private record Entry(String datapath, String inport, String ethDst, String ethSrc, Optional<PathFacts.RouterPortRef> gatewayPort) {
    }

    /** The traces of one check and their reading. */
    private final class Walk {
        private final NorthboundFacts nb;
        private final PathFacts path;
        private final LoadBalancer lb;
        private final List<String> backends;
        private final Entry entry;
        private final Endpoint client;
        private final String proto;

        Walk(NorthboundFacts nb, PathFacts path, LoadBalancer lb, List<String> backends, Entry entry, Endpoint client, String proto) {
            this.nb = nb;
            this.path = path;
            this.lb = lb;
            this.backends = backends;
            this.entry = entry;
            this.client = client;
            this.proto = proto;
        }

        String request() {
            return microflow(entry.inport(), entry.ethSrc().isEmpty() ? CLIENT_MAC : entry.ethSrc(), entry.ethDst(), client, vip);
        }

        private String microflow(String inport, String ethSrc, String ethDst, Endpoint src, Endpoint dst) {
            String family = dst.isIpv6() ? "ip6" : "ip4";
            return "inport == \"" + inport + "\" && eth.src == " + ethSrc + " && eth.dst == " + ethDst + " && " + family + ".src == "
                    + src.host() + " && " + family + ".dst == " + dst.host() + " && ip.ttl == 64 && " + proto + " && " + proto
                    + ".src == " + src.port() + " && " + proto + ".dst == " + dst.port();
        }

        BackendPath backend(String backend, SouthboundFacts sb) {
            Endpoint b;
            try {
                b = Endpoint.parse(backend);
            } catch (IllegalArgumentException malformed) {
                return new BackendPath(backend, PathCause.NO_PORT, "request", "", "", Optional.empty(), "backend " + backend
                        + " is not an address", "fix the backend in Load_Balancer " + lb.name());
            }
            Optional<PathFacts.SwitchPort> port = path.portWithAddress(b.host());
            if (port.isEmpty()) {
                return new BackendPath(backend, PathCause.NO_PORT, "request", "", "", Optional.empty(), "backend " + backend
                        + " is the address of no logical switch port, so no packet can be delivered to it",
                        "check the backend address, or the port's addresses (ovn-nbctl lsp-set-addresses PORT \"MAC " + b.host() + "\")");
            }
            PathFacts.SwitchPort target = port.get();
            String lbDst = "--lb-dst=" + backend;
            List<String> options = new ArrayList<>(NEW);
            options.add(lbDst);
            TracedPacket forward = TracedPacket.parse(tracer.traceDetailed(entry.datapath(), request(), options));
            String affinity = "";
            if (forward.endsLearningAffinity()) {
                // The first packet of a client's new session ends where OVN learns its backend; the
                // retransmission is what reaches it. Trace that one, with the learned flow's registers.
                TracedPacket.Step learn = forward.steps().get(forward.steps().size() - 1);
                Optional<String> registers = learnedRegisters(forward, learn, backend, sb);
                if (registers.isEmpty()) {
                    return new BackendPath(backend, PathCause.DROPPED, "request", learn.stage(), learn.datapath(), Optional.empty(),
                            "the request from " + client.host() + " ends at " + learn.stage() + " of " + learn.datapath()
                                    + ", where OVN learns the client's session-affinity backend (commit_lb_aff), and no logical flow"
                                    + " of " + learn.datapath() + " sends a client with a learned backend to " + backend
                                    + ", so the client's retransmission cannot be traced",
                            "ovn-sbctl lflow-list " + learn.datapath() + " | grep " + b.host() + " shows the affinity flows"
                                    + " (check that ovn-northd is running and that doctor's ovn-trace is of the database's release)");
                }
                forward = TracedPacket.parse(tracer.traceDetailed(entry.datapath(), request() + " && " + registers.get(), options));
                affinity = "; session affinity: OVN drops the first packet of a client's new session where it learns the backend"
                        + " (commit_lb_aff at " + learn.stage() + " of " + learn.datapath() + ") and sends the retransmission,"
                        + " traced here, to it";
            }
            if (!forward.outputs().contains(target.name())) {
                Optional<BackendPath> away = unreachable(backend, b, forward);
                return away.isPresent() ? away.get() : classify(backend, forward, "request", b.host());
            }
            Optional<PortBinding> binding = sb.binding(target.name());
            if (binding.isEmpty() || binding.get().chassis().isEmpty()) {
                PathObject object = new PathObject("Logical_Switch_Port", target.name(), target.uuid(), "switch " + target.switchName());
                return new BackendPath(backend, PathCause.PORT_DOWN, "request", "", target.switchName(), Optional.of(object),
                        "the request is output to port " + target.name() + " of switch " + target.switchName() + ", but "
                                + (binding.isEmpty() ? "the Southbound database has no Port_Binding for it" : "its Port_Binding is bound to no chassis")
                                + ": the port is down, nothing receives the packet",
                        "start the backend's VM or pod, or check ovn-controller on its chassis (the port's iface-id must be "
                                + target.name() + ")");
            }
            String ethDst = target.gatewayMac().isEmpty() ? (entry.ethSrc().isEmpty() ? CLIENT_MAC : entry.ethSrc()) : target.gatewayMac();
            String reply = microflow(target.name(), target.mac(), ethDst, b, client);
            TracedPacket back = TracedPacket.parse(tracer.traceDetailed(target.switchName(), reply, REPLY));
            if (back.outputs().contains(entry.inport()) || back.outputs().contains("cr-" + entry.inport())) {
                Optional<BackendPath> raw = notUndnatted(backend, forward, back);
                if (raw.isPresent()) {
                    return raw.get();
                }
                return new BackendPath(backend, PathCause.DELIVERED, "", "", "", Optional.empty(), "the request is output to port "
                        + target.name() + " (switch " + target.switchName() + ") and the reply back to " + entry.inport() + affinity, "");
            }
            return classify(backend, back, "reply", client.host());
        }

        /**
         * The learned session-affinity flow's register comparisons for this backend, as a microflow
         * clause ({@code reg9[6] == 1 && reg4 == 10.0.0.2 && reg8[0..15] == 80}): those of the flow
         * on the learning stage's datapath that sends a client with a learned backend to it.
         */
        private Optional<String> learnedRegisters(TracedPacket t, TracedPacket.Step learn, String backend, SouthboundFacts sb) {
            Optional<String> bit = t.affinityBit();
            Optional<UUID> nbDatapath = nb.routerNamed(learn.datapath()).or(() -> nb.switchNamed(learn.datapath()));
            Optional<UUID> datapath = nbDatapath.flatMap(sb::datapathOf);
            if (bit.isEmpty() || datapath.isEmpty()) {
                return Optional.empty();
            }
            for (AffinityFlow f : sb.affinityFlows(Endpoints.canonical(backend))) {
                if (f.datapaths().contains(datapath.get()) && f.registers().contains(bit.get() + " == 1")) {
                    return Optional.of(String.join(" && ", f.registers()));
                }
            }
            return Optional.empty();
        }

        /**
         * When the request was load-balanced by the router it entered and the reply leaves that router
         * without an un-DNAT ({@code ct_dnat}, {@code ct_dnat_in_czone}): the client gets the answer
         * from the backend's address (or the router's SNAT address), not from the VIP, and drops it.
         * OVN writes such a reply path for {@code options:skip_snat} (and a router's
         * {@code lb_force_snat_ip} addresses) on a distributed router with a gateway port, whose
         * un-DNAT flow then only sets a flag ({@code flags.skip_snat_for_lb = 1; next;}).
         */
        private Optional<BackendPath> notUndnatted(String backend, TracedPacket forward, TracedPacket back) {
            Optional<PathFacts.RouterPortRef> in = path.routerPort(entry.inport());
            if (in.isEmpty()) {
                return Optional.empty();
            }
            String router = in.get().router();
            boolean dnatted = forward.steps().stream().anyMatch(s -> s.datapath().equals(router) && s.actions().contains("ct_lb"));
            List<TracedPacket.Step> mine = back.steps().stream().filter(s -> s.datapath().equals(router)).toList();
            // Judged only where the reply met the load balancer's own un-DNAT flow (priority above 0
            // in the undnat stage): a reply held for ARP, say, is traced as the ARP request instead.
            Optional<TracedPacket.Step> undnat = mine.stream().filter(s -> s.stage().contains("undnat") && s.priority() > 0).findFirst();
            if (!dnatted || undnat.isEmpty() || mine.stream().anyMatch(s -> s.actions().contains("ct_dnat"))) {
                return Optional.empty();
            }
            boolean skip = lb.options().getOrDefault("skip_snat", "false").equals("true");
            Optional<PathObject> object = path.objectOf(undnat.get().flow())
                    .or(() -> nb.routerNamed(router).map(u -> new PathObject("Logical_Router", router, u, "")));
            String snat = mine.stream().map(s -> SNAT.matcher(s.actions())).filter(java.util.regex.Matcher::find)
                    .map(m -> " and SNATs it to " + m.group(1)).findFirst().orElse("");
            return Optional.of(new BackendPath(backend, PathCause.NOT_UNDNATTED, "reply", undnat.get().stage(),
                    router, object, "the reply from " + backend + " leaves router " + router + " without being un-DNATed"
                            + " (" + undnat.get().stage() + ": " + undnat.get().actions().lines().findFirst().orElse("").trim() + ")" + snat
                            + ": the client gets it from another address than the VIP " + vip + " and drops it"
                            + (skip ? "; OVN writes this un-DNAT for options:skip_snat=true on a router with a distributed gateway"
                                    + " port" : ""),
                    skip ? "remove options:skip_snat from Load_Balancer " + lb.name() + " (ovn-nbctl remove load_balancer " + lb.name()
                            + " options skip_snat): on a distributed router OVN applies lb_force_snat_ip only to gateway routers,"
                            + " so the backends see the client's address without it"
                            : "check the router's lb_force_snat_ip and the load balancer's options (ovn-sbctl lflow-list " + router
                            + " | grep undnat)"));
        }

        /**
         * When the request entered a router the load balancer is on and never reached the backend's
         * port: the router cannot reach the backend at all ({@link BackendReach}), a cause to name
         * rather than the last flow the packet met on its way elsewhere.
         */
        private Optional<BackendPath> unreachable(String backend, Endpoint b, TracedPacket t) {
            Optional<PathFacts.RouterPortRef> in = path.routerPort(entry.inport());
            if (in.isEmpty()) {
                return Optional.empty();
            }
            String router = in.get().router();
            Optional<String> why = BackendReach.unreachable(nb, router, b.address());
            if (why.isEmpty()) {
                return Optional.empty();
            }
            Optional<PathObject> object = nb.routerNamed(router).map(u -> new PathObject("Logical_Router", router, u,
                    "networks " + String.join(", ", nb.networks().networks(router))));
            String where = t.outputs().isEmpty() ? "" : " (the request was output to " + String.join(", ", t.outputs()) + ")";
            return Optional.of(new BackendPath(backend, PathCause.UNREACHABLE, "request", t.terminal().map(TracedPacket.Step::stage)
                    .orElse(""), router, object, "the request from " + client.host() + " is DNATed to " + backend + " by router "
                    + router + ", which cannot reach it: " + why.get() + where,
                    BackendReach.fix(nb, router, lb.name(), b.address())));
        }

        /** Names the stage that stopped the packet and the row responsible. */
        BackendPath classify(String backend, TracedPacket t, String direction, String destination) {
            String who = "request".equals(direction) ? "the request from " + client.host() : "the reply to " + client.host();
            Optional<TracedPacket.Step> end = t.terminal();
            if (end.isEmpty()) {
                return new BackendPath(backend, PathCause.DROPPED, direction, "", entry.datapath(), Optional.empty(), who
                        + " matches no logical flow", "check that ovn-northd is running and connected to both databases");
            }
            TracedPacket.Step s = end.get();
            String verb = s.rejects() ? "rejected" : "dropped";
            String at = verb + " at " + s.stage() + " of " + s.datapath();
            Optional<PathObject> object = Optional.empty();
            for (TracedPacket.Step c : t.culprits()) {
                object = path.objectOf(c.flow());
                if (object.isPresent()) {
                    break;
                }
            }
            if (object.isPresent()) {
                PathObject o = object.get();
                switch (o.table()) {
                    case "ACL":
                        return new BackendPath(backend, PathCause.ACL, direction, s.stage(), s.datapath(), object, who + " is " + at
                                + " by " + o, "allow " + client.host() + " by an ACL of a higher priority, or change or remove this one"
                                + path.aclDelete(o.uuid()).map(c -> " (" + c + ")").orElse(""));
                    case "Logical_Router_Policy":
                        return new BackendPath(backend, PathCause.ROUTER_POLICY, direction, s.stage(), s.datapath(), object, who
                                + " is " + at + " by " + o, "change or remove that policy (ovn-nbctl lr-policy-list " + s.datapath() + ")");
                    case "Load_Balancer":
                        if (backends.isEmpty()) {
                            return new BackendPath(backend, PathCause.NO_BACKENDS, direction, s.stage(), s.datapath(), object,
                                    "VIP " + vip + " of " + o + " has no backends: " + who + " is " + at
                                            + (s.rejects() ? " (options:reject=true)" : ""),
                                    "give the VIP backends, or remove it (ovn-nbctl lb-del " + o.name() + " " + vip + ")");
                        }
                        break;
                    case "Logical_Switch_Port":
                        if (!o.detail().isEmpty()) {
                            return new BackendPath(backend, PathCause.PORT_DOWN, direction, s.stage(), s.datapath(), object, who
                                    + " is " + at + ": " + o + " is disabled", "ovn-nbctl lsp-set-enabled " + o.name() + " enabled");
                        }
                        break;
                    default:
                        break;
                }
                return new BackendPath(backend, PathCause.DROPPED, direction, s.stage(), s.datapath(), object, who + " is " + at
                        + " by a logical flow of " + o + " (priority " + s.priority() + ", match " + s.match() + ")",
                        "see why that row's flow drops it: ovn-sbctl lflow-list " + s.datapath());
            }
            if (s.stage().contains("ip_routing")) {
                Optional<UUID> router = nb.routerNamed(s.datapath());
                List<String> routes = path.routes(s.datapath());
                Optional<PathObject> r = router.map(u -> new PathObject("Logical_Router", s.datapath(), u,
                        routes.isEmpty() ? "no static routes" : "static routes " + String.join(", ", routes)));
                return new BackendPath(backend, PathCause.NO_ROUTE, direction, s.stage(), s.datapath(), r, who + " is " + at
                        + ": router " + s.datapath() + " has no route to " + destination
                        + r.map(o -> " (" + o.detail() + ", and no port's network holds it)").orElse(""),
                        "add a route: ovn-nbctl lr-route-add " + s.datapath() + " " + destination + (vip.isIpv6() ? "/128" : "/32")
                                + " NEXTHOP (or a default route " + (vip.isIpv6() ? "::/0" : "0.0.0.0/0") + " via the upstream gateway)");
            }
            String where = t.outputs().isEmpty() ? "" : " (it was output to " + String.join(", ", t.outputs()) + ")";
            return new BackendPath(backend, PathCause.DROPPED, direction, s.stage(), s.datapath(), Optional.empty(), who + " is " + at
                    + " by logical flow " + s.flow() + " (priority " + s.priority() + ", match " + s.match() + ")" + where,
                    "ovn-sbctl lflow-list " + s.datapath() + " shows the flow; its external_ids name no Northbound row");
        }
    }

    /** Configures a {@link PathCheck}. */
    public static final class Builder {
        private final Endpoint vip;
        private final Tracer tracer;
        private String protocol;
        private Endpoint from;
        private String fromPort;

        private Builder(String vipText, Tracer tracer) {
            this.tracer = Objects.requireNonNull(tracer, "tracer");
            Endpoint v = Endpoint.parse(vipText);
            if (!v.hasPort()) {
                throw new IllegalArgumentException("VIP \"" + vipText + "\" has no port: give VIP:PORT");
            }
            this.vip = v;
        }

        /**
         * Only the load balancer of this protocol (needed when the VIP is served for several).
         *
         * @param p {@code tcp}, {@code udp} or {@code sctp}
         * @return this builder
         * @throws IllegalArgumentException for another protocol
         */
        public Builder protocol(String p) {
            if (!Set.of("tcp", "udp", "sctp").contains(p)) {
                throw new IllegalArgumentException("protocol \"" + p + "\" is not tcp, udp or sctp");
            }
            this.protocol = p;
            return this;
        }

        /**
         * The client's address and, optionally, source port ({@value #DEFAULT_CLIENT_PORT} when not given).
         *
         * @param addressPort {@code IP}, {@code IP:PORT}, an IPv6 address or {@code [IPv6]:PORT}
         * @return this builder
         * @throws IllegalArgumentException when it is not an address
         */
        public Builder from(String addressPort) {
            Endpoint e;
            try {
                e = Endpoint.parse(addressPort);
            } catch (IllegalArgumentException notV4) {
                e = Endpoint.address(addressPort);
            }
            this.from = e;
            return this;
        }

        /**
         * The logical port the client's packets enter by (a switch port, e.g. a pod's, or a router
         * port), instead of the gateway port of the VIP's router.
         *
         * @param name the port
         * @return this builder
         */
        public Builder fromPort(String name) {
            this.fromPort = Objects.requireNonNull(name, "fromPort");
            return this;
        }

        /**
         * Builds the check.
         *
         * @return the check
         * @throws IllegalArgumentException when neither a client address nor a port is given, or
         *         the client and VIP are of different IP families
         */
        public PathCheck build() {
            return new PathCheck(this);
        }
    }
}

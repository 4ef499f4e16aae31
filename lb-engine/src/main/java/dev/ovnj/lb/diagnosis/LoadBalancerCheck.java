package dev.ovnj.lb.diagnosis;

import dev.ovnj.lb.BackendHealth;
import dev.ovnj.lb.OperatingStatus;
import dev.ovnj.lb.spec.Endpoint;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.VipSpec;
import dev.ovnj.nb.ip.IpAddresses;
import dev.ovnj.nb.model.LoadBalancer;
import dev.ovnj.nb.model.LogicalRouter;
import dev.ovnj.nb.model.LogicalRouterPort;
import dev.ovnj.sb.model.PortBinding;
import dev.ovnj.sb.model.ServiceMonitor;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The checks of one load balancer (one {@link Subject}), in root-cause order. */
final class LoadBalancerCheck {
    private static final Pattern TRACE_BACKENDS = Pattern.compile("ct_lb(?:_mark)?\\(backends=([^;)]*)");

    private final Subject subject;
    private final NorthboundFacts nb;
    private final Optional<SouthboundFacts> sb;
    private final Optional<Tracer> tracer;
    private final Optional<String> vipFilter;
    private final List<Finding> findings = new ArrayList<>();
    private final List<SkippedCheck> skipped = new ArrayList<>();
    private final Map<UUID, GatewaylessRouter> gatewaylessRows;

    LoadBalancerCheck(Subject subject, NorthboundFacts nb, Optional<SouthboundFacts> sb, Optional<Tracer> tracer,
                      Optional<String> vipFilter, Map<UUID, GatewaylessRouter> gatewayless) {
        this.subject = subject;
        this.gatewaylessRows = gatewayless;
        this.nb = nb;
        this.sb = sb;
        this.tracer = tracer;
        this.vipFilter = vipFilter;
    }

    /** Runs every check and returns the findings. */
    List<Finding> run() {
        for (Subject.RowRef ref : subject.rows()) {
            if (ref.uuid().isEmpty()) {
                add(FindingCode.LB_MISSING, null, "Load_Balancer " + ref.rowName()
                        + (ref.protocol().isEmpty() ? "" : " (" + ref.protocol() + ")") + " is not in the Northbound database"
                        + (ref.note().isEmpty() ? "" : " (" + ref.note() + ")"),
                        "apply the desired state (ovnj reconcile --file ...) and check that the owner matches");
                continue;
            }
            checkRow(ref.uuid().get());
        }
        return findings;
    }

    /** Trace runs that could not be made. */
    List<SkippedCheck> skipped() {
        return skipped;
    }

    private void checkRow(UUID uuid) {
        LoadBalancer lb = nb.balancer(uuid);
        String row = lb.name();
        String protocol = NorthboundFacts.protocol(lb);
        Map<String, List<String>> nbVips = new LinkedHashMap<>();
        lb.vips().forEach((k, v) -> nbVips.put(Endpoints.canonical(k), Endpoints.backends(v)));
        Map<String, List<String>> desired = desiredVips(protocol).orElse(nbVips);
        Map<String, List<String>> vips = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> e : desired.entrySet()) {
            if (vipFilter.isPresent() && !vipFilter.get().equals(e.getKey())) {
                continue;
            }
            if (!nbVips.containsKey(e.getKey())) {
                add(FindingCode.LB_MISSING, e.getKey(), "VIP " + e.getKey() + " is not in Load_Balancer " + row + " (" + uuid + ")",
                        "apply the desired state (ovnj reconcile --file ...)");
                continue;
            }
            vips.put(e.getKey(), nbVips.get(e.getKey()));
        }
        Set<UUID> routers = nb.routersOf(uuid);
        Set<UUID> switches = nb.switchesOf(uuid);
        checkAttachment(uuid, row, routers, switches);
        if (routers.isEmpty() && switches.isEmpty()) {
            return;
        }
        checkConflicts(uuid, row, protocol, vips, routers, switches);
        // Two load balancers on one VIP make northd's flows for it ambiguous: the conflict is the cause.
        Map<String, List<String>> unambiguous = new LinkedHashMap<>(vips);
        findings.stream().filter(f -> f.code() == FindingCode.CONFLICT).forEach(f -> f.vip().ifPresent(unambiguous::remove));
        Set<UUID> gatewayless = new HashSet<>();
        // neighbor_responder=none says the VIPs are routed to the router: no ARP/ND answer is wanted.
        boolean routed = "none".equals(lb.options().get("neighbor_responder"));
        for (UUID r : routers) {
            checkRouter(r, row, routed ? Map.of() : vips, gatewayless);
        }
        checkBackendPorts(row, vips);
        for (UUID r : routers) {
            checkReach(nb.router(r).name(), row, vips);
            checkSkipSnat(nb.router(r), lb, row);
        }
        if (sb.isEmpty()) {
            return;
        }
        Set<String> offline = checkMonitors(row, protocol, vips);
        boolean synced = checkSync(uuid, row, protocol, nbVips, unambiguous, routers, switches, offline);
        if (synced) {
            checkFlows(row, protocol, unambiguous, routers, switches, offline);
        }
        boolean errors = !gatewayless.isEmpty() || findings.stream().anyMatch(f -> f.severity() == Severity.ERROR);
        if (tracer.isPresent() && !errors) {
            for (UUID r : routers) {
                if (!gatewayless.contains(r)) {
                    trace(r, row, protocol, vips, desired);
                }
            }
        }
    }

    private Optional<Map<String, List<String>>> desiredVips(String protocol) {
        if (subject.desired().isEmpty()) {
            return Optional.empty();
        }
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (VipSpec v : subject.desired().get().vips()) {
            if (v.protocol().wireValue().equals(protocol)) {
                out.put(Endpoints.canonical(v.vip()), v.backends().stream().map(Endpoints::canonical).toList());
            }
        }
        return Optional.of(out);
    }

    private void checkAttachment(UUID uuid, String row, Set<UUID> routers, Set<UUID> switches) {
        List<String> groups = nb.groupsOf(uuid);
        String via = groups.isEmpty() ? "" : " (directly or through group " + String.join(", ", groups) + ")";
        int before = findings.size();
        if (subject.desired().isPresent()) {
            LoadBalancerSpec spec = subject.desired().get();
            for (String name : new TreeSet<>(spec.routers())) {
                Optional<UUID> r = nb.routerNamed(name);
                if (r.isEmpty()) {
                    add(FindingCode.NOT_ATTACHED, null, "router " + name + " named by the desired state does not exist, so "
                            + row + " is not on it", "create the router (ovn-nbctl lr-add " + name + ") or fix the name");
                } else if (!routers.contains(r.get())) {
                    add(FindingCode.NOT_ATTACHED, null, "Load_Balancer " + row + " (" + uuid + ") is not on router " + name + via,
                            "apply the desired state (ovnj reconcile) or ovn-nbctl lr-lb-add " + name + " " + row);
                }
            }
            for (String name : new TreeSet<>(spec.switches())) {
                Optional<UUID> s = nb.switchNamed(name);
                if (s.isEmpty()) {
                    add(FindingCode.NOT_ATTACHED, null, "switch " + name + " named by the desired state does not exist, so "
                            + row + " is not on it", "create the switch (ovn-nbctl ls-add " + name + ") or fix the name");
                } else if (!switches.contains(s.get())) {
                    add(FindingCode.NOT_ATTACHED, null, "Load_Balancer " + row + " (" + uuid + ") is not on switch " + name + via,
                            "apply the desired state (ovnj reconcile) or ovn-nbctl ls-lb-add " + name + " " + row);
                }
            }
        }
        // The same rule with or without a file, so the same database gives the same findings: where
        // the row should be is known only from a file, but a row on nothing serves nobody either way.
        // (A row on switches only is a valid east-west load balancer, not a finding.)
        if (routers.isEmpty() && switches.isEmpty() && findings.size() == before) {
            add(FindingCode.NOT_ATTACHED, null, "Load_Balancer " + row + " (" + uuid + ") is on no router and no switch"
                    + (groups.isEmpty() ? "" : " (its group " + String.join(", ", groups) + " is on none either)")
                    + ", so nothing reaches its VIPs",
                    "attach it: add a router or switch to the spec and run ovnj reconcile, or ovn-nbctl lr-lb-add ROUTER " + row);
        }
    }

    private void checkConflicts(UUID uuid, String row, String protocol, Map<String, List<String>> vips,
                                Set<UUID> routers, Set<UUID> switches) {
        for (String vip : vips.keySet()) {
            String key = NorthboundFacts.vipKey(vip, protocol);
            for (UUID dp : routers) {
                conflict(uuid, row, vip, protocol, nb.vipUsers(dp, key), "router " + nb.router(dp).name());
            }
            for (UUID dp : switches) {
                conflict(uuid, row, vip, protocol, nb.vipUsers(dp, key), "switch " + nb.switchName(dp));
            }
        }
    }

    private void conflict(UUID uuid, String row, String vip, String protocol, List<UUID> users, String where) {
        Set<String> others = new TreeSet<>();
        for (UUID u : users) {
            if (!u.equals(uuid)) {
                others.add(nb.balancer(u).name() + " (" + u + ")");
            }
        }
        if (!others.isEmpty()) {
            add(FindingCode.CONFLICT, vip, "VIP " + vip + "/" + protocol + " of " + row + " is also served by "
                    + String.join(", ", others) + " on " + where + "; OVN picks one of them",
                    "remove the VIP from one of the load balancers (or detach the other one from the " + where.split(" ")[0] + ")");
        }
    }

    private void checkRouter(UUID r, String row, Map<String, List<String>> vips, Set<UUID> gatewayless) {
        LogicalRouter router = nb.router(r);
        for (String vip : vips.keySet()) {
            Endpoint ep = Endpoint.parse(vip);
            if (!nb.networks().routes(router.name(), ep.address())) {
                List<String> nets = nb.networks().networks(router.name());
                add(FindingCode.VIP_OUTSIDE_ROUTER_NETWORKS, vip, "VIP address " + ep.host() + " of " + row + " is outside every network of router "
                        + router.name() + "'s ports (" + (nets.isEmpty() ? "it has none" : String.join(", ", nets))
                        + "), so the router answers no ARP/ND for it", "use a VIP inside the external port's network, or add that network to the gateway port"
                        + " (if the upstream routes the VIP to the router, say so: options:neighbor_responder=none)");
            }
        }
        List<LogicalRouterPort> gateways = gatewayPorts(router);
        if (gateways.isEmpty() && !router.options().containsKey("chassis")) {
            // Reported once per router by the diagnosis (GatewaylessRouter), not once per load balancer.
            gatewayless.add(r);
            gatewaylessRows.computeIfAbsent(r, k -> new GatewaylessRouter(r, router.name())).add(subject.name(), row);
            return;
        }
        if (sb.isEmpty()) {
            return;
        }
        for (LogicalRouterPort port : gateways) {
            String cr = "cr-" + port.name();
            Optional<PortBinding> binding = sb.get().binding(cr);
            if (binding.isEmpty()) {
                add(FindingCode.NORTHD_NOT_SYNCED, null, "the Southbound database has no Port_Binding " + cr + " for gateway port "
                        + port.name() + " of router " + router.name() + ", which " + row + " is on", "check that ovn-northd is running and connected to both databases");
            } else if (binding.get().chassis().isEmpty()) {
                add(FindingCode.CHASSISREDIRECT_UNBOUND, null, "Port_Binding " + cr + " of router " + router.name()
                        + "'s gateway port " + port.name() + " has no chassis, so no chassis answers outside for the router, and for " + row,
                        "check the gateway chassis named by " + port.name() + " (ovn-nbctl lrp-get-gateway-chassis " + port.name()
                        + "): its ovn-controller must be running and registered");
            }
        }
    }

    private List<LogicalRouterPort> gatewayPorts(LogicalRouter router) {
        return RouterEntry.gatewayPorts(nb, router);
    }

    private void checkBackendPorts(String row, Map<String, List<String>> vips) {
        Set<String> seen = new HashSet<>();
        for (Map.Entry<String, List<String>> e : vips.entrySet()) {
            for (String backend : e.getValue()) {
                String ip = Endpoints.host(backend);
                if (!ip.isEmpty() && seen.add(ip) && !nb.isSwitchPortAddress(ip)) {
                    add(FindingCode.BACKEND_NO_PORT, e.getKey(), "backend " + backend + " of VIP " + e.getKey()
                            + " (" + row + ") is the address of no logical switch port", "check the backend address, or the port's addresses (ovn-nbctl lsp-set-addresses PORT \"MAC " + ip + "\")");
                }
            }
        }
    }

    /**
     * {@code skip_snat} on a distributed router with a gateway port: northd then writes the replies'
     * un-DNAT as {@code flags.skip_snat_for_lb = 1; next;} (OVN 23.03 to 26.03), and every connection fails.
     */
    private void checkSkipSnat(LogicalRouter router, LoadBalancer lb, String row) {
        if (!"true".equals(lb.options().get("skip_snat")) || router.options().containsKey("chassis")) {
            return;
        }
        List<String> gateways = gatewayPorts(router).stream().map(LogicalRouterPort::name).toList();
        if (gateways.isEmpty()) {
            return;
        }
        add(FindingCode.SKIP_SNAT_DISTRIBUTED_ROUTER, null, "Load_Balancer " + row + " has options:skip_snat=true and is on router "
                + router.name() + ", a distributed router (gateway port " + String.join(", ", gateways) + ", no options:chassis): OVN"
                + " does not un-DNAT its replies there (lr_out_undnat: flags.skip_snat_for_lb = 1; next;), so clients get them from"
                + " the backends' addresses and every connection through its VIPs fails",
                "remove the option (ovn-nbctl remove load_balancer " + row + " options skip_snat; skipSnat: false in the spec):"
                        + " OVN applies lb_force_snat_ip only on gateway routers, so on " + router.name()
                        + " the backends see the clients' addresses without it");
    }

    /** Reports, per VIP, the backends (logical switch ports) the router cannot send the VIP's traffic to. */
    private void checkReach(String router, String row, Map<String, List<String>> vips) {
        for (Map.Entry<String, List<String>> e : vips.entrySet()) {
            List<String> unreachable = new ArrayList<>();
            Optional<String> why = Optional.empty();
            InetAddress first = null;
            for (String backend : e.getValue()) {
                String ip = Endpoints.host(backend);
                if (ip.isEmpty() || !nb.isSwitchPortAddress(ip)) {
                    continue;
                }
                InetAddress a = IpAddresses.parse(ip);
                Optional<String> reason = BackendReach.unreachable(nb, router, a);
                if (reason.isPresent()) {
                    unreachable.add(backend);
                    if (why.isEmpty()) {
                        why = reason;
                        first = a;
                    }
                }
            }
            if (!unreachable.isEmpty()) {
                add(FindingCode.BACKEND_UNREACHABLE, e.getKey(), "router " + router + " cannot reach " + (unreachable.size() == 1 ? "backend "
                        : "backends ") + String.join(", ", unreachable) + " of VIP " + e.getKey() + " (" + row + "): " + why.get()
                        + "; the router DNATs the VIP's traffic and sends it there",
                        BackendReach.fix(nb, router, row, first));
            }
        }
    }

    /**
     * Reports offline backends and returns them ({@code ip:port}, canonical); and each monitored VIP
     * whose operating status is ERROR or UNKNOWN.
     */
    private Set<String> checkMonitors(String row, String protocol, Map<String, List<String>> vips) {
        Set<String> offline = new HashSet<>();
        for (Map.Entry<String, List<String>> e : vips.entrySet()) {
            List<BackendHealth> health = new ArrayList<>();
            boolean monitored = false;
            for (String backend : e.getValue()) {
                Endpoint ep;
                try {
                    ep = Endpoint.parse(backend);
                } catch (IllegalArgumentException malformed) {
                    continue;
                }
                BackendHealth h = BackendHealth.UNKNOWN;
                for (ServiceMonitor m : sb.get().monitors(ep.host(), ep.port(), protocol)) {
                    monitored = true;
                    String status = m.status().map(s -> s.wireValue()).orElse("");
                    if (status.equals("offline") || status.equals("error")) {
                        offline.add(backend);
                        h = BackendHealth.ERROR;
                        add(FindingCode.BACKEND_OFFLINE, e.getKey(), "backend " + backend + " of VIP " + e.getKey() + " (" + row
                                + "): Service_Monitor on port " + m.logicalPort() + " reports " + status
                                + ", so OVN sends it no traffic", "check the backend's service on port " + ep.port() + " (and the health check's source IP and port " + m.logicalPort() + ")");
                    } else if (status.equals("online") && !sb.get().reporterGone(m)) {
                        h = BackendHealth.ONLINE;
                    }
                }
                health.add(h);
            }
            // A VIP with a monitor is checked; one whose backends have none is reported by backend-no-port or not checked.
            OperatingStatus op = OperatingStatus.ofVip(monitored, health);
            if (op == OperatingStatus.ERROR) {
                add(FindingCode.VIP_ERROR, e.getKey(), "VIP " + e.getKey() + " (" + row + ") has no healthy backend: every"
                        + " Service_Monitor reports offline or error, so OVN sends its traffic nowhere",
                        "bring a backend back (see the backend-offline findings)");
            } else if (op == OperatingStatus.UNKNOWN) {
                add(FindingCode.VIP_UNKNOWN, e.getKey(), "VIP " + e.getKey() + " (" + row + ") has no backend known healthy:"
                        + " a Service_Monitor has no status yet, or its port is unbound or on a chassis whose ovn-controller is"
                        + " gone (no Chassis_Private)", "check ovn-controller on the backends' chassis (ovn-sbctl show) and the"
                        + " ports' bindings");
            }
        }
        return offline;
    }

    private boolean checkSync(UUID uuid, String row, String protocol, Map<String, List<String>> nbVips,
                              Map<String, List<String>> vips, Set<UUID> routers, Set<UUID> switches, Set<String> offline) {
        SouthboundFacts south = sb.get();
        String fix = "check that ovn-northd is running, active and connected to both databases (ovn-appctl -t ovn-northd status)";
        int before = findings.size();
        for (UUID r : routers) {
            if (south.datapathOf(r).isEmpty()) {
                add(FindingCode.NORTHD_NOT_SYNCED, null, "router " + nb.router(r).name() + " (" + r + "), which " + row + " is on, has no Southbound Datapath_Binding", fix);
            }
        }
        Set<UUID> expected = new TreeSet<>();
        List<String> switchNames = new ArrayList<>();
        for (UUID s : switches) {
            switchNames.add(nb.switchName(s));
            Optional<UUID> dp = south.datapathOf(s);
            if (dp.isEmpty()) {
                add(FindingCode.NORTHD_NOT_SYNCED, null, "switch " + nb.switchName(s) + " (" + s + "), which " + row + " is on, has no Southbound Datapath_Binding", fix);
            } else {
                expected.add(dp.get());
            }
        }
        Set<UUID> expectedRouters = new TreeSet<>();
        List<String> routerNames = new ArrayList<>();
        for (UUID r : routers) {
            routerNames.add(nb.router(r).name());
            south.datapathOf(r).ifPresent(expectedRouters::add);
        }
        Optional<SouthboundFacts.SouthboundBalancer> sbl = south.balancerFor(uuid);
        // OVN 23.03 writes a Southbound Load_Balancer only for load balancers on switches; 25.03 on
        // also for those on routers only.
        boolean rowExpected = !switches.isEmpty() || (south.routersRecorded() && !routers.isEmpty());
        String on = attachedTo(switchNames, routerNames, south.routersRecorded());
        if (rowExpected) {
            if (sbl.isEmpty()) {
                add(FindingCode.NORTHD_NOT_SYNCED, null, "the Southbound database has no Load_Balancer for " + row + " (" + uuid
                        + ", by external_ids:lb_id or the same UUID), which is on " + on, fix);
            } else if (!sbl.get().vips().equals(nbVips) || !sbl.get().protocol().equals(protocol)) {
                add(FindingCode.NORTHD_NOT_SYNCED, null, "Southbound Load_Balancer " + sbl.get().uuid() + " of " + row
                        + " (on " + on + ") is stale: it has VIPs " + new TreeMap<>(sbl.get().vips()) + " (" + sbl.get().protocol()
                        + "), the Northbound row has " + new TreeMap<>(nbVips) + " (" + protocol + ")", fix);
            } else if (!new TreeSet<>(sbl.get().switchDatapaths()).equals(expected)
                    || (south.routersRecorded() && !new TreeSet<>(sbl.get().routerDatapaths()).equals(expectedRouters))) {
                Set<UUID> has = new TreeSet<>(sbl.get().switchDatapaths());
                Set<UUID> want = new TreeSet<>(expected);
                if (south.routersRecorded()) {
                    has.addAll(sbl.get().routerDatapaths());
                    want.addAll(expectedRouters);
                }
                add(FindingCode.NORTHD_NOT_SYNCED, null, "Southbound Load_Balancer " + sbl.get().uuid() + " of " + row
                        + " names datapaths " + has + " (through its datapath groups), but in the Northbound database it is on "
                        + on + " (datapaths " + want + ")", fix);
            }
        } else if (sbl.isPresent()) {
            add(FindingCode.NORTHD_NOT_SYNCED, null, "the Southbound database still has Load_Balancer " + sbl.get().uuid() + " for "
                    + row + ", which is on no " + (south.routersRecorded() ? "router or switch" : "switch") + " any more", fix);
        }
        // Before OVN 25.03 routers have no Southbound Load_Balancer row: their VIP address sets and
        // flows are the record of what northd did (and stay a check on every release).
        for (UUID r : routers) {
            Optional<UUID> dp = south.datapathOf(r);
            if (dp.isEmpty()) {
                continue;
            }
            String router = nb.router(r).name();
            for (String vip : vips.keySet()) {
                Endpoint ep = Endpoint.parse(vip);
                // northd puts only VIPs inside the router's networks into the set its ARP/ND responder uses.
                if (!nb.networks().routes(router, ep.address())) {
                    continue;
                }
                String set = south.routerLbSetName(dp.get(), ep.isIpv6());
                Optional<Set<String>> ips = south.routerLbAddresses(dp.get(), ep.isIpv6());
                if (ips.isEmpty() || !ips.get().contains(ep.host())) {
                    add(FindingCode.NORTHD_NOT_SYNCED, vip, "VIP address " + ep.host() + " of " + row + " is not in router "
                            + router + "'s Southbound address set " + set + (ips.isEmpty() ? " (northd wrote no such set)" : "")
                            + ", which northd fills with the router's load-balancer VIPs", fix);
                }
            }
            for (Map.Entry<String, List<String>> e : vips.entrySet()) {
                Set<String> want = liveBackends(e.getValue(), offline);
                if (want.isEmpty()) {
                    continue;
                }
                List<LbFlow> flows = flowsOn(dp.get(), e.getKey(), protocol);
                if (!flows.isEmpty() && flows.stream().noneMatch(f -> new TreeSet<>(f.backends()).equals(want))) {
                    add(FindingCode.NORTHD_NOT_SYNCED, e.getKey(), "the logical flows of router " + nb.router(r).name() + " balance VIP "
                            + e.getKey() + " to " + flows.get(0).backends() + ", the Northbound row " + row + " says " + e.getValue(), fix);
                }
            }
        }
        return findings.size() == before;
    }

    private static String attachedTo(List<String> switchNames, List<String> routerNames, boolean routersRecorded) {
        List<String> parts = new ArrayList<>();
        if (!switchNames.isEmpty()) {
            parts.add("switch " + String.join(", ", new TreeSet<>(switchNames)));
        }
        if (routersRecorded && !routerNames.isEmpty()) {
            parts.add("router " + String.join(", ", new TreeSet<>(routerNames)));
        }
        return String.join(" and ", parts);
    }

    private void checkFlows(String row, String protocol, Map<String, List<String>> vips, Set<UUID> routers,
                            Set<UUID> switches, Set<String> offline) {
        for (Map.Entry<String, List<String>> e : vips.entrySet()) {
            if (liveBackends(e.getValue(), offline).isEmpty()) {
                continue;
            }
            for (UUID r : routers) {
                noFlow(row, e.getKey(), protocol, r, "router " + nb.router(r).name());
            }
            for (UUID s : switches) {
                noFlow(row, e.getKey(), protocol, s, "switch " + nb.switchName(s));
            }
        }
    }

    private void noFlow(String row, String vip, String protocol, UUID nbDatapath, String where) {
        Optional<UUID> dp = sb.get().datapathOf(nbDatapath);
        if (dp.isPresent() && flowsOn(dp.get(), vip, protocol).isEmpty()) {
            add(FindingCode.NO_LFLOW, vip, "no logical flow of " + where + " (datapath " + dp.get() + ") load-balances VIP " + vip
                    + " of " + row + " although the Southbound database is in sync for it",
                    "look for errors in ovn-northd's log about " + row + " (e.g. a VIP or option it rejects); ovn-sbctl lflow-list "
                    + where.substring(where.indexOf(' ') + 1) + " shows its flows");
        }
    }

    private List<LbFlow> flowsOn(UUID datapath, String vip, String protocol) {
        Endpoint ep = Endpoint.parse(vip);
        List<LbFlow> out = new ArrayList<>();
        for (LbFlow f : sb.get().flows(LbFlow.lookupKey(ep, protocol))) {
            if (f.datapaths().contains(datapath)) {
                out.add(f);
            }
        }
        return out;
    }

    private static Set<String> liveBackends(List<String> backends, Set<String> offline) {
        Set<String> out = new TreeSet<>(backends);
        out.removeAll(offline);
        return out;
    }

    private void trace(UUID r, String row, String protocol, Map<String, List<String>> vips, Map<String, List<String>> desired) {
        LogicalRouter router = nb.router(r);
        for (Map.Entry<String, List<String>> e : vips.entrySet()) {
            if (e.getValue().isEmpty()) {
                continue;
            }
            Endpoint ep = Endpoint.parse(e.getKey());
            Optional<LogicalRouterPort> port = RouterEntry.ingressPort(nb, router, ep);
            if (port.isEmpty()) {
                continue;
            }
            String microflow = microflow(port.get(), ep, protocol);
            String out;
            try {
                out = tracer.get().trace(router.name(), microflow);
            } catch (Tracer.TraceException ex) {
                skipped.add(new SkippedCheck(FindingCode.TRACE_MISMATCH, subject.name() + " " + e.getKey() + " on router "
                        + router.name() + ": " + ex.getMessage()));
                continue;
            }
            Set<String> want = new TreeSet<>(desired.getOrDefault(e.getKey(), e.getValue()));
            Matcher m = TRACE_BACKENDS.matcher(out);
            String fix = "run ovn-trace " + router.name() + " '" + microflow + "' to see which stage diverts the packet";
            if (!m.find()) {
                add(FindingCode.TRACE_MISMATCH, e.getKey(), "ovn-trace of a packet from " + port.get().name() + " (router "
                        + router.name() + ") to " + e.getKey() + " of " + row + " never reaches ct_lb" + (out.contains("drop;") ? ": it is dropped" : ""), fix);
            } else {
                Set<String> got = new TreeSet<>(Endpoints.backends(m.group(1)));
                if (!got.equals(want)) {
                    add(FindingCode.TRACE_MISMATCH, e.getKey(), "ovn-trace of a packet from " + port.get().name() + " (router "
                            + router.name() + ") to " + e.getKey() + " of " + row + " load-balances to " + got + ", the desired backends are " + want, fix);
                }
            }
        }
    }

    private static String microflow(LogicalRouterPort port, Endpoint vip, String protocol) {
        String family = vip.isIpv6() ? "ip6" : "ip4";
        // A documentation-range client outside every tenant network.
        String source = vip.isIpv6() ? "2001:db8::1" : "192.0.2.1";
        int dport = vip.hasPort() ? vip.port() : 80;
        return "inport == \"" + port.name() + "\" && eth.src == 02:00:00:00:00:01 && eth.dst == " + port.mac()
                + " && " + family + ".src == " + source + " && " + family + ".dst == " + vip.host() + " && ip.ttl == 64 && "
                + protocol + " && " + protocol + ".dst == " + dport;
    }

    private void add(FindingCode code, String vip, String message, String fix) {
        Finding f = new Finding(code, subject.name(), Optional.ofNullable(vip), message, fix);
        if (!findings.contains(f)) {
            findings.add(f);
        }
    }
}

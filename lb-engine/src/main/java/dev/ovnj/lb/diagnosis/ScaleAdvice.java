package dev.ovnj.lb.diagnosis;

import dev.ovnj.lb.spec.Endpoint;
import dev.ovnj.nb.model.LoadBalancer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * Advice on how the checked load balancers are set up, for the work they cost ovn-northd and
 * ovn-controller rather than for whether traffic flows: load balancers attached one by one to many
 * switches and routers (a {@code Load_Balancer_Group} would do), routed VIPs with the default ARP/ND
 * responder, and {@code hairpin_snat_ip} set per load balancer. Each finding gives the numbers found
 * and what to change.
 */
final class ScaleAdvice {
    /**
     * Direct attachments from which a group is advised: below this, northd's per-datapath work for
     * a load balancer is small next to everything else it does.
     */
    static final int MANY_DATAPATHS = 10;
    private static final int NAMED = 5;

    private final NorthboundFacts nb;
    private final Map<UUID, String> rows;

    /**
     * @param nb the Northbound facts
     * @param rows the checked Load_Balancer rows and the spec name each was checked under
     */
    ScaleAdvice(NorthboundFacts nb, Map<UUID, String> rows) {
        this.nb = nb;
        this.rows = rows;
    }

    List<Finding> findings() {
        List<Finding> out = new ArrayList<>();
        groups().ifPresent(out::add);
        out.addAll(neighborResponders());
        hairpinSnat().ifPresent(out::add);
        return out;
    }

    /** Load balancers attached directly, each to the same many datapaths: one finding per such set. */
    private Optional<Finding> groups() {
        Map<Set<UUID>, List<UUID>> bySet = new LinkedHashMap<>();
        for (UUID lb : rows.keySet()) {
            Set<UUID> direct = nb.directDatapaths(lb);
            if (direct.size() >= MANY_DATAPATHS) {
                bySet.computeIfAbsent(direct, k -> new ArrayList<>()).add(lb);
            }
        }
        if (bySet.isEmpty()) {
            return Optional.empty();
        }
        int balancers = 0;
        long references = 0;
        int widest = 0;
        Set<String> specs = new LinkedHashSet<>();
        for (Map.Entry<Set<UUID>, List<UUID>> e : bySet.entrySet()) {
            balancers += e.getValue().size();
            references += (long) e.getValue().size() * e.getKey().size();
            widest = Math.max(widest, e.getKey().size());
            e.getValue().forEach(lb -> specs.add(rows.get(lb)));
        }
        List<String> lbs = List.copyOf(specs);
        return Optional.of(new Finding(FindingCode.SCALE_LB_GROUP, lbs.get(0), Optional.empty(),
                balancers + " load balancers (" + names(lbs) + ") are attached one by one to " + MANY_DATAPATHS + " or more switches and"
                        + " routers each (up to " + widest + ", " + references + " references in " + bySet.size()
                        + " distinct sets); northd then handles every load balancer on every datapath, where a Load_Balancer_Group"
                        + " on those datapaths is handled once (OVN measured 120 switches x 1,000 load balancers: 30 s -> 1 s of"
                        + " northd work)",
                "attach through a group: set group: NAME in those specs and run ovnj reconcile (or ovn-nbctl create"
                        + " load_balancer_group, add the load balancers to it and the group to each switch's and router's"
                        + " load_balancer_group, then remove the direct ls-lb-add/lr-lb-add references)", lbs));
    }

    /**
     * Router load balancers whose VIPs are all outside their routers' networks (so they can only be
     * routed to the router) and whose {@code neighbor_responder} is left at its default.
     */
    private List<Finding> neighborResponders() {
        List<Finding> out = new ArrayList<>();
        for (Map.Entry<UUID, String> e : rows.entrySet()) {
            LoadBalancer lb = nb.balancer(e.getKey());
            Set<UUID> routers = nb.routersOf(e.getKey());
            if (routers.isEmpty() || lb.vips().isEmpty() || lb.options().containsKey("neighbor_responder")
                    || Boolean.parseBoolean(lb.options().getOrDefault("add_route", "false"))) {
                continue;
            }
            int routed = 0;
            for (String vip : lb.vips().keySet()) {
                if (outsideEveryRouter(vip, routers)) {
                    routed++;
                }
            }
            if (routed == lb.vips().size()) {
                out.add(new Finding(FindingCode.SCALE_NEIGHBOR_RESPONDER, e.getValue(), Optional.empty(), "all " + routed
                        + " VIPs of Load_Balancer " + lb.name() + " lie outside every network of its " + routers.size()
                        + " router(s) (" + String.join(", ", new TreeSet<>(routers.stream().map(r -> nb.router(r).name()).toList()))
                        + "), so they reach the router only routed, yet options:neighbor_responder is left at its default"
                        + " (reachable): northd works out for each VIP and router whether to answer ARP/ND for it, to answer none",
                        "if the VIPs are routed to the router: ovn-nbctl set load_balancer " + lb.name() + " options:neighbor_responder=none"
                                + " (or options.neighborResponder: none in the spec); else move them into the external port's network"));
            }
        }
        return out;
    }

    private boolean outsideEveryRouter(String vip, Set<UUID> routers) {
        Endpoint ep;
        try {
            ep = Endpoint.parse(vip);
        } catch (IllegalArgumentException malformed) {
            return false;
        }
        for (UUID r : routers) {
            if (nb.networks().routes(nb.router(r).name(), ep.address())) {
                return false;
            }
        }
        return true;
    }

    /** Load balancers with their own hairpin_snat_ip, with the hairpin SNAT flows that costs ovn-controller. */
    private Optional<Finding> hairpinSnat() {
        Set<String> specs = new LinkedHashSet<>();
        Set<String> addresses = new TreeSet<>();
        int vips = 0;
        long pairs = 0;
        for (Map.Entry<UUID, String> e : rows.entrySet()) {
            LoadBalancer lb = nb.balancer(e.getKey());
            String ip = lb.options().get("hairpin_snat_ip");
            if (ip == null || ip.isBlank()) {
                continue;
            }
            specs.add(e.getValue());
            addresses.add(ip.trim());
            int datapaths = nb.switchesOf(e.getKey()).size() + nb.routersOf(e.getKey()).size();
            vips += lb.vips().size();
            pairs += (long) lb.vips().size() * datapaths;
        }
        if (pairs <= vips) {
            // Each on one datapath at most: a flow per VIP either way.
            return Optional.empty();
        }
        List<String> lbs = List.copyOf(specs);
        return Optional.of(new Finding(FindingCode.SCALE_HAIRPIN_SNAT_IP, lbs.get(0), Optional.empty(),
                lbs.size() + " load balancers (" + names(lbs) + ") set options:hairpin_snat_ip (" + String.join(", ", addresses)
                        + "): for them ovn-controller matches the datapath in its hairpin SNAT flows, up to one flow per VIP and"
                        + " datapath (" + pairs + " for these " + vips + " VIPs, on each chassis where the datapaths are local),"
                        + " where without it one flow per VIP does",
                "unset it where hairpinned traffic may come back from the VIP (ovn-nbctl remove load_balancer NAME options"
                        + " hairpin_snat_ip, or drop options.hairpinSnatIp from the spec); keep it only where the source must be"
                        + " one address", lbs));
    }

    private static String names(List<String> lbs) {
        return String.join(", ", lbs.subList(0, Math.min(NAMED, lbs.size()))) + (lbs.size() > NAMED ? " and " + (lbs.size() - NAMED) + " more" : "");
    }
}

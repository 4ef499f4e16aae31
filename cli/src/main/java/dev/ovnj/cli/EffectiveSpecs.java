package dev.ovnj.cli;

import dev.ovnj.lb.spec.LbOptions;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.Protocol;
import dev.ovnj.lb.spec.VipSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The specs to hand to the engine for a desired state: the valid ones as written, and, for each
 * invalid one, what the database holds for it now. The engine deletes every owned row that no
 * spec names, so leaving an invalid spec out would delete a working load balancer because of a
 * typo in its new version; keeping its current rows is what "write nothing for an invalid spec"
 * means.
 *
 * @param specs the specs to apply or plan
 * @param problems one line per validation problem, naming file, line, owner, spec and field
 * @param invalid names of the invalid specs
 * @param kept names of invalid specs whose current rows are kept
 */
record EffectiveSpecs(List<LoadBalancerSpec> specs, List<String> problems, Set<String> invalid, Set<String> kept) {

    /** Copies the collections. */
    EffectiveSpecs {
        specs = List.copyOf(specs);
        problems = List.copyOf(problems);
        invalid = Set.copyOf(invalid);
        kept = Set.copyOf(kept);
    }

    /**
     * Resolves a desired state against the database.
     *
     * @param state the file's contents
     * @param owner the owner
     * @param snapshot the database now
     * @return the specs and problems
     */
    static EffectiveSpecs of(DesiredState state, String owner, NorthboundSnapshot snapshot) {
        List<DesiredState.SpecProblem> problems = state.problems(owner);
        Set<String> invalid = new LinkedHashSet<>();
        problems.forEach(p -> invalid.add(p.spec()));
        List<LoadBalancerSpec> specs = new ArrayList<>();
        Set<String> kept = new LinkedHashSet<>();
        Set<String> seen = new LinkedHashSet<>();
        for (LoadBalancerSpec spec : state.specs()) {
            if (!seen.add(spec.name())) {
                continue;
            }
            if (!invalid.contains(spec.name())) {
                specs.add(spec);
            } else {
                current(snapshot, owner, spec.name()).ifPresent(s -> {
                    specs.add(s);
                    kept.add(s.name());
                });
            }
        }
        return new EffectiveSpecs(specs, problems.stream().map(DesiredState.SpecProblem::message).toList(), invalid, kept);
    }

    /**
     * Rebuilds a spec from the owner's rows for it, so that planning it changes nothing.
     *
     * @param snapshot the database
     * @param owner the owner
     * @param name the spec's name
     * @return the spec, or empty when the database holds no row of it
     */
    static Optional<LoadBalancerSpec> current(NorthboundSnapshot snapshot, String owner, String name) {
        List<OwnedLoadBalancer> rows = snapshot.ownedBy(owner).stream().filter(lb -> lb.spec().equals(name)).toList();
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        LoadBalancerSpec.Builder b = LoadBalancerSpec.builder(name);
        Set<String> routers = new LinkedHashSet<>();
        Set<String> switches = new LinkedHashSet<>();
        Optional<String> group = rows.stream().flatMap(r -> r.groups().stream()).findFirst();
        for (OwnedLoadBalancer row : rows) {
            Protocol protocol = Protocol.parse(row.protocol());
            row.vips().forEach((vip, backends) -> b.vip(VipSpec.of(protocol, vip,
                    backends.isBlank() ? List.of() : Arrays.asList(backends.split(",")))));
            routers.addAll(row.routers());
            switches.addAll(row.switches());
        }
        if (group.isPresent()) {
            b.group(group.get());
            routers.addAll(snapshot.groupRouters().getOrDefault(group.get(), Set.of()));
            switches.addAll(snapshot.groupSwitches().getOrDefault(group.get(), Set.of()));
        }
        OwnedLoadBalancer first = rows.get(0);
        return Optional.of(b.routers(routers.toArray(String[]::new)).switches(switches.toArray(String[]::new))
                .options(options(first)).externalIds(new LinkedHashMap<>(first.externalIds())).build());
    }

    private static LbOptions options(OwnedLoadBalancer row) {
        Map<String, String> o = row.options();
        LbOptions out = LbOptions.DEFAULTS.withReject("true".equals(o.get("reject")))
                .withSkipSnat("true".equals(o.get("skip_snat"))).withSelectionFields(row.selectionFields());
        String affinity = o.get("affinity_timeout");
        if (affinity != null && affinity.matches("\\d{1,5}")) {
            out = out.withAffinityTimeout(Integer.parseInt(affinity));
        }
        if (o.containsKey("hairpin_snat_ip")) {
            out = out.withHairpinSnatIp(o.get("hairpin_snat_ip"));
        }
        if (o.containsKey("neighbor_responder")) {
            out = out.withNeighborResponder(o.get("neighbor_responder"));
        }
        return out;
    }
}

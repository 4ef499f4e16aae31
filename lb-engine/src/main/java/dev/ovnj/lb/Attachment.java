package dev.ovnj.lb;

import dev.ovnj.lb.plan.Target;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Where a load balancer can be served: a router, a switch, or a group, by name.
 *
 * @param kind router, switch or group
 * @param name its name
 */
record Attachment(Target kind, String name) {

    /** Where a spec wants its load balancers: its routers, switches and group. */
    static Set<Attachment> of(LoadBalancerSpec spec) {
        Set<Attachment> out = new LinkedHashSet<>();
        spec.routers().forEach(r -> out.add(new Attachment(Target.ROUTER, r)));
        spec.switches().forEach(s -> out.add(new Attachment(Target.SWITCH, s)));
        spec.group().ifPresent(g -> out.add(new Attachment(Target.GROUP, g)));
        return out;
    }

    /** E.g. {@code router lr0}. */
    @Override
    public String toString() {
        return kind.word() + " " + name;
    }
}

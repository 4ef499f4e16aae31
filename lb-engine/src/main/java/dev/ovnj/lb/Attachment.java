package dev.ovnj.lb;

import dev.ovnj.lb.plan.Target;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import java.util.Set;

/**
 * Where a load balancer can be served: a router, a switch, or a group, by name.
 *
 * @param kind router, switch or group
 * @param name its name
 */
record Attachment(Target kind, String name) {

    /**
     * Where a spec wants its load balancers: its routers, switches and group, as an immutable set
     * in no particular order. Built straight into its final form: every declaration derives it,
     * and an ordered set copied into an immutable one was two hash tables of garbage per spec.
     */
    static Set<Attachment> of(LoadBalancerSpec spec) {
        // The spec's routers and switches are sets, and the kinds differ: no duplicates.
        Attachment[] out = new Attachment[spec.routers().size() + spec.switches().size() + (spec.group().isPresent() ? 1 : 0)];
        int n = 0;
        for (String r : spec.routers()) {
            out[n++] = new Attachment(Target.ROUTER, r);
        }
        for (String s : spec.switches()) {
            out[n++] = new Attachment(Target.SWITCH, s);
        }
        if (spec.group().isPresent()) {
            out[n] = new Attachment(Target.GROUP, spec.group().get());
        }
        return Set.of(out);
    }

    /** E.g. {@code router lr0}. */
    @Override
    public String toString() {
        return kind.word() + " " + name;
    }
}

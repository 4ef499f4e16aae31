package dev.ovnj.lb;

import dev.ovnj.lb.plan.DesiredRow;
import dev.ovnj.lb.internal.HealthChecks;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.Protocol;
import dev.ovnj.lb.spec.VipSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What the engine derives from one declared, valid spec of one owner: the rows it becomes, its
 * VIPs in normalized form, where it is attached, its row names. Worked out once per declaration
 * rather than on every pass that admits and plans the spec (a converge looks at each spec at least
 * twice: to write it and to see it applied). Immutable and compact (kept for every declared
 * spec): its strings and collections are the spec's own where they can be, and the VIP claims and
 * indexes share them.
 *
 * @param rows the rows the spec becomes (one per protocol, in first-use order), without health
 *     checks (those depend on the topology)
 * @param vipKeys the VIPs' keys, in the order of {@code spec.vips()}
 * @param targets its routers, switches and group
 * @param checked whether a VIP has a health check
 */
record SpecFacts(List<DesiredRow> rows, List<VipKey> vipKeys, Set<Attachment> targets, boolean checked) {

    /**
     * Derives the facts of a statically valid spec.
     *
     * @param owner the owner
     * @param spec the spec, valid
     * @return its facts
     */
    static SpecFacts of(String owner, LoadBalancerSpec spec) {
        List<DesiredRow> rows = DesiredRow.of(owner, spec);
        List<VipKey> keys = new ArrayList<>(spec.vips().size());
        for (VipSpec v : spec.vips()) {
            keys.add(VipKey.of(v.protocol(), v.vip()));
        }
        return new SpecFacts(List.copyOf(rows), List.copyOf(keys), Set.copyOf(Attachment.of(spec)), HealthChecks.any(spec));
    }

    /**
     * The name of the row that carries a protocol's VIPs.
     *
     * @param protocol a protocol the spec uses
     * @return its row's name
     */
    String rowName(Protocol protocol) {
        for (DesiredRow r : rows) {
            if (r.protocol() == protocol) {
                return r.rowName();
            }
        }
        throw new IllegalArgumentException("the spec has no " + protocol.wireValue() + " VIP");
    }

    /**
     * The row names, one per protocol in first-use order.
     *
     * @return the row names
     */
    List<String> rowNames() {
        if (rows.size() == 1) {
            return List.of(rows.get(0).rowName());
        }
        List<String> out = new ArrayList<>(rows.size());
        rows.forEach(r -> out.add(r.rowName()));
        return out;
    }
}

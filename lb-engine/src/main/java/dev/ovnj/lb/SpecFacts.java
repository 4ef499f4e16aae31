package dev.ovnj.lb;

import dev.ovnj.lb.plan.DesiredRow;
import dev.ovnj.lb.plan.HealthChecks;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.Protocol;
import dev.ovnj.lb.spec.VipSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the engine derives from one declared, valid spec of one owner: the rows it becomes, its
 * VIPs in normalized form, where it is attached, its row names. Worked out once per declaration
 * rather than on every pass that admits and plans the spec (a converge looks at each spec at least
 * twice: to write it and to see it applied). Immutable.
 *
 * @param rows the rows the spec becomes, without health checks (those depend on the topology)
 * @param vipKeys the VIPs' keys, in the order of {@code spec.vips()}
 * @param targets its routers, switches and group
 * @param rowNames each protocol's row name, in first-use order
 * @param checked whether a VIP has a health check
 */
record SpecFacts(List<DesiredRow> rows, List<VipKey> vipKeys, Set<Attachment> targets, Map<Protocol, String> rowNames,
                 boolean checked) {

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
        Map<Protocol, String> names = new LinkedHashMap<>();
        for (DesiredRow r : rows) {
            names.put(r.protocol(), r.rowName());
        }
        return new SpecFacts(rows, List.copyOf(keys), Collections.unmodifiableSet(Attachment.of(spec)),
                Collections.unmodifiableMap(names), HealthChecks.any(spec));
    }
}

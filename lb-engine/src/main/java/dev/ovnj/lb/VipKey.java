package dev.ovnj.lb;

import dev.ovnj.lb.spec.Endpoint;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.Protocol;
import dev.ovnj.lb.spec.VipSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * What two load balancers can collide on: a protocol and a VIP, normalized once (so
 * {@code [2a01:4f8:0:0::10]:443} and {@code [2a01:4f8::10]:443} are the same VIP).
 *
 * @param protocol the protocol
 * @param vip the VIP in its normalized form
 */
record VipKey(Protocol protocol, String vip) {

    static VipKey of(Protocol protocol, String vip) {
        String normalized;
        try {
            normalized = Endpoint.normalize(vip);
        } catch (IllegalArgumentException e) {
            // Foreign rows may hold anything; an unparsable VIP still only equals itself.
            normalized = vip;
        }
        return new VipKey(protocol, normalized);
    }

    static List<VipKey> of(LoadBalancerSpec spec) {
        List<VipKey> out = new ArrayList<>();
        for (VipSpec v : spec.vips()) {
            out.add(of(v.protocol(), v.vip()));
        }
        return out;
    }

    /** E.g. {@code tcp 10.0.0.1:80}. */
    @Override
    public String toString() {
        return protocol.wireValue() + " " + vip;
    }
}

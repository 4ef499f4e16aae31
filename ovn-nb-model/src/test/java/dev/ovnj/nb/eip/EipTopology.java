package dev.ovnj.nb.eip;

import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import java.time.Duration;

/**
 * The kube-dc style topology the EIP tests run on, made with ovn-nbctl: router {@code shalb-dev}
 * with external port {@code 168.119.17.51/28} and an IPv6 external port {@code fd00:10::1/120},
 * switch {@code shalb-dev-default}, load balancers on {@code .55:6443}, {@code .53:6443} and
 * {@code [fd00:10::55]:443} attached to both, and a floating IP {@code .60 -> 10.1.0.5}.
 */
final class EipTopology {
    static final Duration WAIT = Duration.ofSeconds(20);
    static final String ROUTER = "shalb-dev";
    static final String SWITCH = "shalb-dev-default";
    static final String EXT_PORT = "lrp-shalb-dev-ext";
    static final String EXT6_PORT = "lrp-shalb-dev-ext6";

    private EipTopology() {
    }

    static void seed(OvsdbServer server) {
        Nbctl nbctl = Nbctl.of(server);
        nbctl.run("init");
        nbctl.run("lr-add", ROUTER);
        nbctl.run("lrp-add", ROUTER, EXT_PORT, "02:00:00:00:00:01", "168.119.17.51/28");
        nbctl.run("lrp-add", ROUTER, EXT6_PORT, "02:00:00:00:00:02", "fd00:10::1/120");
        nbctl.run("ls-add", SWITCH);
        nbctl.run("lb-add", "shalb-dev-api", "168.119.17.55:6443", "10.1.0.10:6443");
        nbctl.run("lb-add", "shalb-dev-api2", "168.119.17.53:6443", "10.1.0.11:6443");
        nbctl.run("lb-add", "shalb-dev-api6", "[fd00:10::55]:443", "[fd00:20::5]:443");
        for (String lb : new String[] {"shalb-dev-api", "shalb-dev-api2", "shalb-dev-api6"}) {
            nbctl.run("lr-lb-add", ROUTER, lb);
            nbctl.run("ls-lb-add", SWITCH, lb);
        }
        nbctl.run("lr-nat-add", ROUTER, "dnat_and_snat", "168.119.17.60", "10.1.0.5");
    }

    static OvsdbClient connect(OvsdbServer server) {
        return OvsdbClient.builder().remotes(server.remote()).build().startAndWait(WAIT);
    }
}

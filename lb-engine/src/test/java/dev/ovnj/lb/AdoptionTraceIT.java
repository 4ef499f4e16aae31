package dev.ovnj.lb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.diagnosis.OvnTrace;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.BackendTopology;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvnCentral;
import dev.ovnj.testkit.OvnRelease;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What OVN does with an adopted load balancer, with ovn-northd and ovn-trace: a packet from outside
 * to the VIP of a row another tool wrote is DNATed to its backend before the adoption, and to the
 * spec's backends after it, through the same row (AdoptionIT shows with a monitoring client that no
 * update in between leaves the VIP out). No ovn-controller runs; the bindings are faked.
 */
class AdoptionTraceIT {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String VIP = "172.16.0.2";
    private static final Pattern BACKENDS = Pattern.compile("backends=([^);]*)");

    @Test
    void theVipIsDnatedBeforeAndAfterTheAdoption() throws Exception {
        try (OvnCentral ovn = OvnCentral.start()) {
            BackendTopology.of(ovn).withGateway().create();
            Nbctl nbctl = ovn.nbctl();
            nbctl.run("lb-add", "kube-web", VIP + ":80", BackendTopology.BACKEND1 + ":80", "tcp");
            nbctl.run("lr-lb-add", BackendTopology.ROUTER, "kube-web");
            nbctl.run("ls-lb-add", BackendTopology.SWITCH, "kube-web");
            String uuid = nbctl.run("--bare", "--columns=_uuid", "find", "Load_Balancer", "name=kube-web").strip();
            ovn.sync();
            OvnTrace trace = OvnTrace.of(ovn.southbound().remote()).withCommand(OvnRelease.current().command("ovn-trace"));
            assertThat(backends(trace)).isEqualTo(BackendTopology.BACKEND1 + ":80");

            LoadBalancerSpec web = LoadBalancerSpec.builder("web").routers(BackendTopology.ROUTER).switches(BackendTopology.SWITCH)
                    .tcp(VIP + ":80", BackendTopology.BACKEND1 + ":80", BackendTopology.BACKEND2 + ":80").build();
            try (OvsdbClient client = EngineFixture.client(ovn.northbound().remote());
                 LoadBalancerEngine engine = LoadBalancerEngine.builder(client).build().start()) {
                client.startAndWait(WAIT);
                ApplyResult r = engine.apply("ovnj-k8s", List.of(web), ApplyOption.adopt("unowned")).get(20, TimeUnit.SECONDS);
                assertThat(r.statuses().get("web").state()).isEqualTo(SpecStatus.State.APPLIED);
            }
            assertThat(nbctl.run("--bare", "--columns=_uuid", "find", "Load_Balancer", "name=web-tcp").strip()).isEqualTo(uuid);
            ovn.sync();
            assertThat(backends(trace)).isEqualTo(BackendTopology.BACKEND1 + ":80," + BackendTopology.BACKEND2 + ":80");
        }
    }

    /** The backends ct_lb picks among for a TCP packet from outside to the VIP, through the router's external port. */
    private static String backends(OvnTrace trace) {
        String out = trace.trace(BackendTopology.ROUTER, "inport == \"" + BackendTopology.EXTERNAL_PORT + "\" && eth.src == 02:00:00:00:00:01"
                + " && eth.dst == 00:00:00:00:01:01 && ip4.src == 192.0.2.1 && ip4.dst == " + VIP + " && ip.ttl == 64 && tcp && tcp.dst == 80");
        Matcher m = BACKENDS.matcher(out);
        assertThat(m.find()).as("ovn-trace reaches ct_lb:\n" + out).isTrue();
        return m.group(1);
    }
}

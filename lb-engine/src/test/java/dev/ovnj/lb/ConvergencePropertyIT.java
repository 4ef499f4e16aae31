package dev.ovnj.lb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.NbctlException;
import dev.ovnj.testkit.OvsdbServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Random sequences of desired states, interleaved with foreign writes and drift, always converge
 * to exactly the desired rows, and foreign rows come out as their writers left them.
 */
class ConvergencePropertyIT {
    static final String OWNER = "prop";
    static OvsdbServer server;
    static Nbctl nbctl;
    static OvsdbClient client;
    static LoadBalancerEngine engine;

    /** One step of a scenario. */
    sealed interface Step permits Declare, Foreign, Drift {
    }

    /** The owner declares a full desired state. */
    record Declare(List<LoadBalancerSpec> specs) implements Step {
    }

    /** Another client writes its own load balancer. */
    record Foreign(String name, String vip, String backend, boolean attach) implements Step {
    }

    /** Another client damages an owned row. */
    record Drift(int kind, int target) implements Step {
    }

    @BeforeContainer
    static void start() {
        server = OvsdbServer.start();
        nbctl = Nbctl.of(server);
        EngineFixture.seed(nbctl);
        client = OvsdbClient.builder().remotes(server.remote()).monitor(LoadBalancerEngine.monitorRequest()).build();
        engine = LoadBalancerEngine.builder(client).build().start();
        client.startAndWait(Duration.ofSeconds(20));
    }

    @AfterContainer
    static void stop() {
        engine.close();
        client.close();
        server.close();
    }

    @Provide
    Arbitrary<List<Step>> scenarios() {
        Arbitrary<LoadBalancerSpec> spec = Combinators.combine(
                Arbitraries.integers().between(0, 5),
                Arbitraries.integers().between(0, 3),
                Arbitraries.integers().between(0, 2),
                Arbitraries.integers().between(0, 2)).as((n, backend, attach, proto) -> {
                    LoadBalancerSpec.Builder b = LoadBalancerSpec.builder("s" + n);
                    if (attach != 1) {
                        b.routers("shalb-dev");
                    }
                    if (attach != 0) {
                        b.switches("shalb-dev-default");
                    }
                    String vip = "168.119.17." + (52 + n) + ":" + (80 + proto);
                    String be = "10.1.0." + (10 + backend) + ":8080";
                    return proto == 1 ? b.udp(vip, be).build() : b.tcp(vip, be).build();
                });
        Arbitrary<Step> declare = spec.list().ofMaxSize(4).uniqueElements(LoadBalancerSpec::name).map(Declare::new);
        Arbitrary<Step> foreign = Combinators.combine(Arbitraries.integers().between(0, 2), Arbitraries.integers().between(1, 9),
                Arbitraries.of(true, false)).as((n, b, attach) -> new Foreign("foreign" + n, "10.96.0." + n + ":443", "172.18.0." + b + ":6443", attach));
        Arbitrary<Step> drift = Combinators.combine(Arbitraries.integers().between(0, 4), Arbitraries.integers().between(0, 5)).as(Drift::new);
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, declare), net.jqwik.api.Tuple.of(2, foreign), net.jqwik.api.Tuple.of(3, drift))
                .list().ofMinSize(2).ofMaxSize(7);
    }

    @Property(tries = 25, seed = "4242")
    void convergesToExactlyTheDesiredRowsWithForeignRowsUntouched(@ForAll("scenarios") List<Step> steps) throws Exception {
        List<LoadBalancerSpec> desired = List.of();
        Map<String, String> foreign = new TreeMap<>();
        engine.apply(OWNER, desired).get(20, TimeUnit.SECONDS);
        for (String name : lines("--bare", "--columns=name", "list", "Load_Balancer")) {
            nbctl.run("--if-exists", "lb-del", name);
        }
        for (Step step : steps) {
            if (step instanceof Declare d) {
                desired = d.specs();
                engine.apply(OWNER, desired);
            } else if (step instanceof Foreign f) {
                nbctl.run("--if-exists", "lb-del", f.name());
                nbctl.run("lb-add", f.name(), f.vip(), f.backend());
                if (f.attach()) {
                    nbctl.run("lr-lb-add", "shalb-dev", f.name());
                }
                foreign.put(f.name(), f.vip() + "=" + f.backend());
            } else if (step instanceof Drift d) {
                drift(d);
            }
        }
        List<LoadBalancerSpec> finalState = desired;
        // ovn-nbctl's last commit reaches our cache asynchronously; a transaction's read-your-writes
        // barrier makes sure the cache has seen it before "in sync" can be judged.
        client.transactAndWait(client.transaction().add(Operations.comment("barrier")).build(), Duration.ofSeconds(20));
        Await.until(Duration.ofSeconds(20), "converged", () -> engine.plan(OWNER, finalState).isEmpty());

        Map<String, String> expectedOwned = new TreeMap<>();
        for (LoadBalancerSpec s : finalState) {
            var v = s.vips().get(0);
            expectedOwned.put(s.name() + "-" + v.protocol().wireValue(), v.vip() + "=" + v.backends().get(0));
        }
        Map<String, String> owned = new TreeMap<>();
        Map<String, String> others = new TreeMap<>();
        for (String line : lines("--format=csv", "--data=bare", "--no-headings", "--columns=name,vips,external_ids", "list", "Load_Balancer")) {
            String[] p = line.split(",", 3);
            (p[2].contains("ovnj.owner=" + OWNER) ? owned : others).put(p[0], p[1]);
        }
        assertThat(owned).isEqualTo(expectedOwned);
        assertThat(others).isEqualTo(foreign);
        String routerLbs = nbctl.run("lr-lb-list", "shalb-dev");
        for (LoadBalancerSpec s : finalState) {
            assertThat(routerLbs.contains(s.vips().get(0).vip())).as(s.name() + " on router").isEqualTo(s.routers().contains("shalb-dev"));
        }
    }

    private static void drift(Drift d) {
        List<String> owned = lines("--bare", "--columns=name", "find", "Load_Balancer", "external_ids:ovnj.owner=" + OWNER);
        if (owned.isEmpty()) {
            return;
        }
        String row = owned.get(d.target() % owned.size());
        try {
            switch (d.kind()) {
                case 0 -> nbctl.run("--if-exists", "lb-del", row);
                case 1 -> nbctl.run("clear", "Load_Balancer", row, "vips");
                case 2 -> nbctl.run("--if-exists", "lr-lb-del", "shalb-dev", row);
                case 3 -> nbctl.run("set", "Load_Balancer", row, "vips:\"10.200.0.1:1\"=\"10.200.0.2:1\"", "options:reject=true");
                default -> nbctl.run("--if-exists", "ls-lb-del", "shalb-dev-default", row);
            }
        } catch (NbctlException raced) {
            // The engine may have replaced the row between listing and editing; drift is best effort.
        }
    }

    private static List<String> lines(String... args) {
        List<String> out = new ArrayList<>();
        for (String l : nbctl.run(args).split("\n")) {
            if (!l.isBlank()) {
                out.add(l.trim());
            }
        }
        return out;
    }
}

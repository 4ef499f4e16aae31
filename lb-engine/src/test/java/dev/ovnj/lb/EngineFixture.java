package dev.ovnj.lb;

import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A seeded NB server with a client and an engine, closed together. */
final class EngineFixture implements AutoCloseable {
    static final Duration WAIT = Duration.ofSeconds(20);
    final OvsdbServer server;
    final Nbctl nbctl;
    final OvsdbClient client;
    final LoadBalancerEngine engine;
    final List<RepairEvent> repairs = new CopyOnWriteArrayList<>();
    final List<Integer> txSizes = new CopyOnWriteArrayList<>();

    EngineFixture() {
        this(OvsdbServer.start());
    }

    EngineFixture(OvsdbServer server) {
        this(server, b -> b);
    }

    EngineFixture(java.util.function.UnaryOperator<LoadBalancerEngine.Builder> config) {
        this(OvsdbServer.start(), config);
    }

    EngineFixture(OvsdbServer server, java.util.function.UnaryOperator<LoadBalancerEngine.Builder> config) {
        this.server = server;
        this.nbctl = Nbctl.of(server);
        seed(nbctl);
        this.client = client(server.remote());
        this.engine = config.apply(LoadBalancerEngine.builder(client)).build();
        engine.addListener(new EngineListener() {
            @Override
            public void onRepair(RepairEvent event) {
                repairs.add(event);
            }

            @Override
            public void onTransaction(int operations, Duration latency, Throwable error) {
                if (error == null) {
                    txSizes.add(operations);
                }
            }
        });
        engine.start();
        client.startAndWait(WAIT);
    }

    /**
     * A client replicating what the engine needs and reconnecting quickly (backoff 20 ms to 500 ms),
     * as the engine tests use it; not started.
     *
     * @param remotes one remote or a comma-separated list
     */
    static OvsdbClient client(String remotes) {
        return OvsdbClient.builder().remotes(remotes).monitor(LoadBalancerEngine.monitorRequest())
                .backoff(Duration.ofMillis(20), Duration.ofMillis(500)).build();
    }

    /** The kube-dc project topology: router with an external port on the EIP network, and a switch. */
    static void seed(Nbctl nbctl) {
        nbctl.run("lr-add", "shalb-dev");
        nbctl.run("lrp-add", "shalb-dev", "shalb-dev-ext", "02:00:00:00:00:01", "168.119.17.51/28");
        nbctl.run("ls-add", "shalb-dev-default");
    }

    List<String> lines(String... args) {
        List<String> out = new ArrayList<>();
        for (String l : nbctl.run(args).split("\n")) {
            if (!l.isBlank()) {
                out.add(l.trim());
            }
        }
        return out;
    }

    @Override
    public void close() {
        engine.close();
        client.close();
        server.close();
    }
}

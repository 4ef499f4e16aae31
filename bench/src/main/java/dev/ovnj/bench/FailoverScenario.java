package dev.ovnj.bench;

import static dev.ovnj.bench.Scenarios.OWNER;
import static dev.ovnj.bench.Scenarios.ROUTER;
import static dev.ovnj.bench.Scenarios.SEED;
import static dev.ovnj.bench.Scenarios.SWITCH;
import static dev.ovnj.bench.Scenarios.WAIT;
import static dev.ovnj.bench.Scenarios.backends;
import static dev.ovnj.bench.Scenarios.check;
import static dev.ovnj.bench.Scenarios.client;
import static dev.ovnj.bench.Scenarios.secondsSince;
import static dev.ovnj.bench.Scenarios.specs;
import static dev.ovnj.bench.Scenarios.vip;

import dev.ovnj.bench.Scenarios.Sizes;
import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.client.ClientStats;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbCluster;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The failover scenario: N specs applied through an engine on a 3-node RAFT cluster, then the
 * leader killed and one spec changed; records how long until the write is through
 * ({@code resume_s}) and the bytes of the reconnect against those of a full sync.
 */
final class FailoverScenario {
    private final Results results;
    private final Sizes sizes;

    FailoverScenario(Scenarios s) {
        this.results = s.results();
        this.sizes = s.sizes();
    }

    void run() throws Exception {
        int n = sizes.get("failover");
        try (OvsdbCluster cluster = OvsdbCluster.start(3)) {
            Nbctl.of(cluster).run(SEED);
            OvsdbClient c = client(cluster.remotes(), LoadBalancerEngine.monitorRequest());
            LoadBalancerEngine engine = LoadBalancerEngine.builder(c).build().start();
            try {
                c.startAndWait(WAIT);
                List<LoadBalancerSpec> specs = specs(n, false);
                check(engine.apply(OWNER, specs).get(WAIT.toSeconds(), TimeUnit.SECONDS).allApplied(), "failover: apply");
                long fullBytes;
                try (OvsdbClient fresh = client(cluster.remotes(), LoadBalancerEngine.monitorRequest())) {
                    fresh.startAndWait(WAIT);
                    fullBytes = fresh.stats().lastSyncBytes();
                }
                int leader = cluster.awaitLeader();
                ClientStats before = c.stats();
                LoadBalancerSpec changed = LoadBalancerSpec.builder(specs.get(0).name()).routers(ROUTER).switches(SWITCH)
                        .tcp(vip(0, 20), backends(0, 3, 7).split(",")).build();
                long t0 = System.nanoTime();
                cluster.kill(leader);
                engine.upsert(OWNER, changed).get(WAIT.toSeconds(), TimeUnit.SECONDS);
                double resume = secondsSince(t0);
                long deadline = System.nanoTime() + WAIT.toNanos();
                while (c.stats().connects() == before.connects() && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                ClientStats after = c.stats();
                boolean resumed = after.resumedSyncs() > before.resumedSyncs();
                results.add("failover", "ovnj-engine", "resume_s", resume);
                results.add("failover", "ovnj-engine", "reconnect_bytes", after.lastSyncBytes());
                results.add("failover", "ovnj-engine", "full_sync_bytes", fullBytes);
                results.note(Proc.fmt("failover: %d specs on a 3-node cluster; the reconnect was %s (%d resumed, %d full syncs before -> %d resumed, %d full after); reconnect bytes are %.2f%% of a full sync",
                        n, resumed ? "a resumed monitor_cond_since sync" : "NOT resumed: a full sync", before.resumedSyncs(),
                        before.fullSyncs(), after.resumedSyncs(), after.fullSyncs(), 100.0 * after.lastSyncBytes() / fullBytes));
            } finally {
                engine.close();
                c.close();
            }
        }
    }
}

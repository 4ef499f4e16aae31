package dev.ovnj.bench;

import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.OvsdbServer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The {@code cli-status} scenario: {@code ovnj status} on a Northbound database holding N owned
 * load balancers against {@code ovn-nbctl lb-list} on the same database, each a whole process as a
 * user runs it (the {@code ./ovnj} launcher, JVM start-up included), alternated in the same run so
 * their ratio holds on a busy machine. Target (issue 33): ovnj no slower than ovn-nbctl.
 */
final class CliStatusScenario {
    static final String NAME = "cli-status";
    private static final int RUNS = 3;

    private CliStatusScenario() {
    }

    static void run(int n, Results results) throws Exception {
        try (OvsdbServer server = Scenarios.seededServer()) {
            seed(server, n);
            String db = server.remote();
            // Builds the jar when it is missing or stale; not measured.
            CliStartupScenario.check(WholeProcess.run(List.of(CliStartupScenario.launcher(), "version")), "ovnj version", 1);
            double[] ovnjWall = new double[RUNS];
            double[] ovnjCpu = new double[RUNS];
            double[] nbctlWall = new double[RUNS];
            double[] nbctlCpu = new double[RUNS];
            for (int k = 0; k < RUNS; k++) {
                WholeProcess nbctl = CliStartupScenario.check(WholeProcess.run(List.of("ovn-nbctl", "--db=" + db, "lb-list")),
                        "ovn-nbctl lb-list", n);
                nbctlWall[k] = nbctl.wallSeconds();
                nbctlCpu[k] = nbctl.cpuSeconds();
                WholeProcess ovnj = CliStartupScenario.check(WholeProcess.run(List.of(CliStartupScenario.launcher(), "status", "--db", db)),
                        "ovnj status", n);
                ovnjWall[k] = ovnj.wallSeconds();
                ovnjCpu[k] = ovnj.cpuSeconds();
            }
            results.add(NAME, "ovnj", "wall_s", WholeProcess.median(ovnjWall));
            results.add(NAME, "ovnj", "cpu_s", WholeProcess.median(ovnjCpu));
            results.add(NAME, "ovn-nbctl", "wall_s", WholeProcess.median(nbctlWall));
            results.add(NAME, "ovn-nbctl", "cpu_s", WholeProcess.median(nbctlCpu));
            results.add(NAME, "ovnj", "x_nbctl", WholeProcess.median(ovnjWall) / WholeProcess.median(nbctlWall));
            results.note(Proc.fmt("%s: `ovnj status` vs `ovn-nbctl lb-list` on %d load balancers, each a whole process, median of %d"
                    + " alternated runs", NAME, n, RUNS));
        }
    }

    /** N owned load balancers on the bench's router and switch, written by an engine that then stops. */
    static void seed(OvsdbServer server, int n) throws Exception {
        try (OvsdbClient client = Scenarios.client(server.remote(), LoadBalancerEngine.monitorRequest());
             LoadBalancerEngine engine = LoadBalancerEngine.builder(client).requestTimeout(java.time.Duration.ofMinutes(5)).build()) {
            engine.start();
            client.startAndWait(Scenarios.WAIT);
            var result = engine.apply(Scenarios.OWNER, Scenarios.specs(n, false)).get(600, TimeUnit.SECONDS);
            Scenarios.check(result.allApplied(), NAME + " seeding: not all applied: " + Scenarios.notApplied(result));
        }
    }

    /** The repository root the harness runs in (bench/run.sh changes to it). */
    static Path root() {
        return Path.of("").toAbsolutePath();
    }
}

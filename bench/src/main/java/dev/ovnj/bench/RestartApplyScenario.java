package dev.ovnj.bench;

import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.OvsdbServer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The {@code restart-apply} scenario: a controller restarted on a database that already holds
 * its N load balancers. Each measurement is a JVM of its own, as a restarted controller is: one
 * only syncs a client of the engine's tables (the floor: the rows must be read once); the other
 * builds the N specs, a client and an engine, and applies them, which must be a no-op (no
 * transaction). Both are timed inside the fork from before the client is built, so the JVM's own
 * start is not in either; alternated, the median of each is kept. Target (issue 33): the no-op
 * apply within 1.5x of the sync.
 */
public final class RestartApplyScenario {
    static final String NAME = "restart-apply";
    private static final int RUNS = 3;

    private RestartApplyScenario() {
    }

    static void run(int n, Results results) throws Exception {
        try (OvsdbServer server = Scenarios.seededServer()) {
            long t0 = System.nanoTime();
            CliStatusScenario.seed(server, n);
            results.add(NAME, "ovnj-engine", "initial_apply_s", Scenarios.secondsSince(t0));
            double[] sync = new double[RUNS];
            double[] apply = new double[RUNS];
            double[] applyCpu = new double[RUNS];
            for (int k = 0; k < RUNS; k++) {
                sync[k] = fork("sync", server.remote(), n)[0];
                double[] a = fork("restart", server.remote(), n);
                apply[k] = a[0];
                applyCpu[k] = a[1];
            }
            results.add(NAME, "ovnj-client", "sync_s", WholeProcess.median(sync));
            results.add(NAME, "ovnj-engine", "noop_apply_s", WholeProcess.median(apply));
            results.add(NAME, "ovnj-engine", "noop_apply_cpu_s", WholeProcess.median(applyCpu));
            results.add(NAME, "ovnj-engine", "x_sync", WholeProcess.median(apply) / WholeProcess.median(sync));
            results.note(Proc.fmt("%s: %d specs; each figure the median of %d fresh JVMs, sync and restart alternated", NAME, n, RUNS));
        }
    }

    /** Runs one measurement in a fresh JVM; returns its seconds and the fork's whole CPU seconds. */
    private static double[] fork(String mode, String remote, int n) {
        List<String> command = new ArrayList<>(Scenarios.javaCommand());
        command.addAll(List.of(RestartApplyScenario.class.getName(), mode, remote, Integer.toString(n)));
        String out = Proc.run(command, 900);
        String last = out.strip().lines().reduce((a, b) -> b).orElse("");
        if (!last.startsWith("seconds=")) {
            throw new IllegalStateException(NAME + " " + mode + ": unexpected output " + out);
        }
        System.out.println("  " + NAME + " " + mode + ": " + last);
        String[] f = last.split(" ");
        return new double[] {Double.parseDouble(f[0].substring("seconds=".length())), Double.parseDouble(f[1].substring("cpu=".length()))};
    }

    /**
     * The fork: {@code sync REMOTE N} or {@code restart REMOTE N}; prints
     * {@code seconds=S cpu=C} last, or fails.
     *
     * @param args mode, remote, number of specs
     * @throws Exception when the measurement fails
     */
    public static void main(String[] args) throws Exception {
        String remote = args[1];
        int n = Integer.parseInt(args[2]);
        double cpu0 = Proc.jvmCpuSeconds();
        long t0 = System.nanoTime();
        if (args[0].equals("sync")) {
            try (OvsdbClient client = Scenarios.client(remote, LoadBalancerEngine.monitorRequest())) {
                client.startAndWait(Scenarios.WAIT);
                int rows = client.cache().table("Load_Balancer").size();
                Scenarios.check(rows == n, "sync: " + rows + " load balancers, expected " + n);
            }
        } else {
            List<LoadBalancerSpec> specs = Scenarios.specs(n, false);
            try (OvsdbClient client = Scenarios.client(remote, LoadBalancerEngine.monitorRequest());
                 LoadBalancerEngine engine = LoadBalancerEngine.builder(client).requestTimeout(java.time.Duration.ofMinutes(5)).build()) {
                engine.start();
                client.startAndWait(Scenarios.WAIT);
                var result = engine.apply(Scenarios.OWNER, specs).get(600, TimeUnit.SECONDS);
                Scenarios.check(result.allApplied(), "restart: not all applied: " + Scenarios.notApplied(result));
                long txns = engine.metrics().transactions();
                Scenarios.check(txns == 0, "restart: the re-apply of unchanged specs sent " + txns + " transactions");
            }
        }
        double seconds = Scenarios.secondsSince(t0);
        System.out.println(Proc.fmt("seconds=%.3f cpu=%.3f", seconds, Proc.jvmCpuSeconds() - cpu0));
        System.exit(0);
    }
}

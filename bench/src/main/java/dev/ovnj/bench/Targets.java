package dev.ovnj.bench;

import static dev.ovnj.bench.Scenarios.label;

import dev.ovnj.bench.Scenarios.Sizes;
import java.util.List;
import java.util.Optional;

/**
 * The target table: the run's targets (issue 18's and later ones), each checked against the
 * results once every scenario has run and noted in them as met, MISSED or NOT MEASURED with its
 * value.
 */
final class Targets {
    private final Results results;
    private final Sizes sizes;

    Targets(Results results, Sizes sizes) {
        this.results = results;
        this.sizes = sizes;
    }

    /** Notes each target as met, MISSED or NOT MEASURED, with its value. */
    void note() {
        target("bulk-create: ovnj-writeonly wall <= 1.1x the floor", results.get("bulk-create", "ovnj-writeonly", "x_floor"),
                r -> r <= 1.1, "wall/floor = %.2f");
        target("bulk-create: ovnj-pipelined (with its cache) wall <= 1.3x the floor",
                results.get("bulk-create", "ovnj-pipelined", "x_floor"), r -> r <= 1.3, "wall/floor = %.2f");
        results.get("bulk-create", BulkCreate.MONITOR_FLOOR, "cpu_s").ifPresent(monitorFloor -> results.note(Proc.fmt(
                "bulk-create: any client that keeps a cache of these tables costs ovsdb-server %.2f s of CPU for these writes "
                        + "(%s, measured with a client that parses nothing) against %.2f s with no monitor (the floor): for every "
                        + "monitor the server diffs the modified router's and switch's load_balancer sets, which grow to N%s",
                monitorFloor, BulkCreate.MONITOR_FLOOR, results.get("bulk-create", "floor", "cpu_s").orElse(Double.NaN),
                results.get("bulk-create", "ovnj-pipelined", "x_monitor_floor")
                        .map(x -> Proc.fmt("; ovnj-pipelined wall / that monitor floor = %.2f", x)).orElse(""))));
        target("bulk-create: ovnj-writeonly faster than odl-pipelined", ratio("bulk-create", "odl-pipelined", "wall_s",
                "bulk-create", "ovnj-writeonly", "wall_s"), r -> r > 1, "odl wall / ovnj wall = %.2f");
        // issue 34 replaced "ovnj-pipelined faster than odl-pipelined": a client that keeps a cache
        // is held to the server's own cost of feeding any cache, not to a peer that keeps none.
        target("bulk-create: ovnj-pipelined (with its cache) wall within 1.05x of " + BulkCreate.MONITOR_FLOOR,
                results.get("bulk-create", "ovnj-pipelined", "x_monitor_floor"), r -> r <= 1.05, "wall / monitor floor = %.2f");
        ratio("bulk-create", "odl-pipelined", "wall_s", "bulk-create", "ovnj-pipelined", "wall_s")
                .ifPresent(r -> results.note(Proc.fmt("bulk-create: odl-pipelined wall / ovnj-pipelined wall = %.2f", r)));
        for (String peer : List.of("ovnj-sequential", "odl-sequential", "python-idl", "ovn-nbctl-daemon")) {
            results.get("bulk-create", peer, "x_floor").ifPresent(r -> results.note(Proc.fmt("bulk-create %s: wall/floor = %.2f", peer, r)));
        }
        target("bulk-create-monitor: ovnj-pipelined faster than odl-monitor", ratio("bulk-create-monitor", "odl-monitor", "wall_s",
                "bulk-create-monitor", "ovnj-pipelined", "wall_s"), r -> r > 1, "odl wall / ovnj wall = %.2f");
        target("engine-converge-group: wall <= 1.5x server CPU", ratio("engine-converge-group", "ovnj-engine", "wall_s",
                "engine-converge-group", "ovsdb-server", "cpu_s"), r -> r <= 1.5, "wall/server CPU = %.2f");
        ratio("engine-converge", "ovnj-engine", "wall_s", "engine-converge", "ovsdb-server", "cpu_s")
                .ifPresent(r -> results.note(Proc.fmt("engine-converge direct: wall/server CPU = %.2f", r)));
        target("re-apply sends nothing (direct)", results.get("engine-reapply", "ovnj-engine", "txns"), r -> r == 0, "txns = %.0f");
        target("re-apply sends nothing (group)", results.get("engine-reapply-group", "ovnj-engine", "txns"), r -> r == 0, "txns = %.0f");
        target("incremental p50 <= 1.5 ms", results.get("incremental", "ovnj-engine", "p50_ms"), r -> r <= 1.5, "p50 = %.2f ms");
        target("incremental p99 <= 4 ms", results.get("incremental", "ovnj-engine", "p99_ms"), r -> r <= 4, "p99 = %.2f ms");
        target("drift-repair p99 <= 5 ms", results.get("drift-repair", "ovnj-engine", "p99_ms"), r -> r <= 5, "p99 = %.2f ms");
        target("sync: >= 2.5x faster than the Python IDL", ratio("sync", "python-idl", "sync_s", "sync", "ovnj-engine", "sync_s"),
                r -> r >= 2.5, "Python sync / ovnj sync = %.2f");
        target("sync: >= 2.5x faster than odl", ratio("sync", "odl", "sync_s", "sync", "ovnj-engine", "sync_s"),
                r -> r >= 2.5, "odl sync / ovnj sync = %.2f");
        target("sync: heap per cached LB row (with the engine's indexes) <= its JSON bytes", ratio("sync", "ovnj-engine",
                "heap_bytes_per_row", "sync", "ovnj-engine", "json_bytes_per_row"), r -> r <= 1, "heap/JSON = %.2f");
        List<Integer> scale = sizes.scale();
        if (scale.size() >= 2) {
            String small = "ovnj-engine-" + label(scale.get(0));
            String large = "ovnj-engine-" + label(scale.get(scale.size() - 1));
            target("scale: incremental p99 at " + label(scale.get(scale.size() - 1)) + " specs <= 1.5x its value at "
                    + label(scale.get(0)), ratio("scale", large, "p99_ms", "scale", small, "p99_ms"), r -> r <= 1.5, "ratio = %.2f");
        }
        // issue 34: the client's cost of a change as a ratio to the server's own in the same run.
        for (int n : scale) {
            String client = "ovnj-engine-" + label(n);
            // The watchdog's nudge (every 500 ms) is a hand-off too: 1-3 of them fall in the 3,000
            // measured changes' second or so, 2.0003-2.001 per change with a blocked caller (3 with
            // a stage on the future); a fourth hop per change is 4.
            target("scale " + label(n) + ": at most 3 engine hand-offs per change", results.get("scale", client, "handoffs"),
                    r -> r < 3.01, "%.4f per change");
            target("scale " + label(n) + ": client CPU per change <= 1.5x the server's",
                    ratio("scale", client, "cpu_us", "scale", client, "server_cpu_us"), r -> r <= 1.5, "ratio = %.2f");
            target("scale " + label(n) + ": client CPU per change without the JIT compiler threads <= 1.5x the server's",
                    ratio("scale", client, "cpu_us_nojit", "scale", client, "server_cpu_us"), r -> r <= 1.5, "ratio = %.2f");
        }
        if (!scale.isEmpty()) {
            String large = "ovnj-engine-" + label(scale.get(scale.size() - 1));
            String at = " at " + label(scale.get(scale.size() - 1)) + " specs";
            target("scale: incremental p50 <= 1.5x the server's own round trip" + at,
                    ratio("scale", large, "p50_ms", "scale", large, "server_rtt_p50_ms"), r -> r <= 1.5, "ratio = %.2f");
            target("scale: incremental p99 <= 2x the server's own round trip" + at,
                    ratio("scale", large, "p99_ms", "scale", large, "server_rtt_p99_ms"), r -> r <= 2, "ratio = %.2f");
        }
        Optional<Double> converge = sizes.get("gc") == sizes.get("engine")
                ? results.get("engine-converge-group", "ovnj-engine", "wall_s") : Optional.empty();
        Optional<Double> round1 = results.get("gc-storm", "ovnj-engine", "round1_s");
        for (int r = 1; r <= GcStorm.ROUNDS; r++) {
            Optional<Double> round = results.get("gc-storm", "ovnj-engine", "round" + r + "_s");
            target("gc-storm round " + r + " <= 1.5x engine-converge-group wall", round.flatMap(v -> converge.map(c -> v / c)),
                    x -> x <= 1.5, "ratio = %.2f");
            if (r > 1) {
                target("gc-storm round " + r + " no more than 20% slower than round 1",
                        round.flatMap(v -> round1.map(f -> v / f)), x -> x <= 1.2, "round/round1 = %.2f");
            }
        }
        target("failover: writes resume within 3 s", results.get("failover", "ovnj-engine", "resume_s"), r -> r <= 3, "%.2f s");
        target("doctor: N load balancers diagnosed in < 2 s", results.get("doctor", "ovnj", "diagnose_s"), r -> r < 2, "%.2f s");
        if (results.get("soak", Soak.CLIENT, "futures").isPresent()) {
            target("soak: no spec lost in any window", results.get("soak", Soak.CLIENT, "lost_specs_max"), r -> r == 0,
                    "at most %.0f lost");
            target("soak: every future completed", results.get("soak", Soak.CLIENT, "pending_futures"), r -> r == 0,
                    "%.0f pending");
            for (String metric : List.of("heap_mb", "threads", "fds")) {
                target("soak: " + metric + " of the last window within 5% of the second's",
                        results.get("soak", Soak.CLIENT, metric + "_growth_pct"), r -> r <= 5, "%+.1f%%");
            }
        }
        // issue 33
        target("cli-status: ovnj status no slower than ovn-nbctl lb-list", results.get(CliStatusScenario.NAME, "ovnj", "x_nbctl"),
                r -> r <= 1, "ovnj wall / ovn-nbctl wall = %.2f");
        target("restart-apply: no-op apply after a restart within 1.5x of the sync",
                results.get(RestartApplyScenario.NAME, "ovnj-engine", "x_sync"), r -> r <= 1.5, "apply / sync = %.2f");
        target("cli-startup: ovnj version under 0.3 s of CPU", results.get(CliStartupScenario.NAME, "ovnj", "cpu_s"),
                r -> r < 0.3, "%.2f s");
        controller();
        target("failover: reconnect bytes < 5% of a full sync", ratio("failover", "ovnj-engine", "reconnect_bytes",
                "failover", "ovnj-engine", "full_sync_bytes"), r -> r < 0.05, "ratio = %.4f");
    }

    /** Issue 42's targets for the controller scenario, as ratios of its two sizes in this run. */
    private void controller() {
        String scenario = KubernetesControllerScenario.NAME;
        int smallN = sizes.get("controller-small");
        int largeN = sizes.get("controller-large");
        String small = "controller-" + label(smallN);
        String large = "controller-" + label(largeN);
        if (results.get(scenario, small, "per_service_ms").isEmpty() && results.get(scenario, large, "per_service_ms").isEmpty()) {
            return; // not run
        }
        String at = " at " + label(largeN) + " vs " + label(smallN) + " Services";
        target("controller: per-Service time until ingress" + at + " within 1.5x",
                ratio(scenario, large, "per_service_ms", scenario, small, "per_service_ms"), r -> r <= 1.5, "ratio = %.2f");
        target("controller: heap per Service" + at + " no more", ratio(scenario, large, "heap_per_service_kb", scenario, small,
                "heap_per_service_kb"), r -> r <= 1, "ratio = %.2f");
        for (String c : List.of(small, large)) {
            target("controller: a restart at " + c.substring("controller-".length()) + " Services sends no Northbound transaction",
                    results.get(scenario, c, "restart_sent_txns"), r -> r == 0, "%.0f transactions");
        }
        // Where the mock API server is the bottleneck: the controller's own cost, and its share.
        ratio(scenario, large, "cpu_per_service_ms", scenario, small, "cpu_per_service_ms").ifPresent(r -> results.note(Proc.fmt(
                "controller: the controller's CPU per Service%s: ratio %.2f (its share of the run's CPU: %.0f %% at %s, %.0f %% at %s)",
                at, r, 100 * results.get(scenario, small, "cpu_share").orElse(Double.NaN), label(smallN),
                100 * results.get(scenario, large, "cpu_share").orElse(Double.NaN), label(largeN))));
        ratio(scenario, "mock-api-" + label(largeN), "converge_cpu_s", scenario, large, "cpu_s").ifPresent(r -> results.note(Proc.fmt(
                "controller: at %s the mock API server used %.2fx the controller's CPU", label(largeN), r)));
    }

    private java.util.Optional<Double> ratio(String s1, String c1, String m1, String s2, String c2, String m2) {
        var a = results.get(s1, c1, m1);
        var b = results.get(s2, c2, m2);
        return a.isPresent() && b.isPresent() && b.get() != 0 ? java.util.Optional.of(a.get() / b.get()) : java.util.Optional.empty();
    }

    private void target(String what, java.util.Optional<Double> value, java.util.function.DoublePredicate ok, String fmt) {
        if (value.isEmpty()) {
            results.note("target " + what + ": NOT MEASURED");
        } else {
            results.note("target " + what + ": " + (ok.test(value.get()) ? "met" : "MISSED") + " (" + Proc.fmt(fmt, value.get()) + ")");
        }
    }
}

package dev.ovnj.bench;

import static dev.ovnj.bench.Scenarios.GROUP;
import static dev.ovnj.bench.Scenarios.OWNER;
import static dev.ovnj.bench.Scenarios.ROUTER;
import static dev.ovnj.bench.Scenarios.SWITCH;
import static dev.ovnj.bench.Scenarios.WAIT;
import static dev.ovnj.bench.Scenarios.backends;
import static dev.ovnj.bench.Scenarios.secondsSince;
import static dev.ovnj.bench.Scenarios.vip;

import dev.ovnj.bench.Scenarios.EngineSetup;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * Single-backend changes to random specs of a converged group, one {@code upsert} at a time,
 * each waited for; every change of one sequence gets a backend address none before it used, so
 * none is a no-op, however many calls of {@link #make} the sequence spans.
 */
final class SpecChanges {
    /** Unmeasured changes per warm round before measured changes (fewer if {@code warm-changes} is smaller). */
    private static final int WARM_ROUND = 1_000;

    private final EngineSetup e;
    private final List<LoadBalancerSpec> specs;
    private final Random random = new Random(42);
    private int made;

    SpecChanges(EngineSetup e, List<LoadBalancerSpec> specs) {
        this.e = e;
        this.specs = specs;
    }

    /** Makes {@code count} changes; returns each one's latency in ms (call to committed and cached). */
    List<Double> make(int count) throws Exception {
        List<Double> lat = new ArrayList<>(count);
        for (int c = 0; c < count; c++, made++) {
            int i = random.nextInt(specs.size());
            // Replace the first backend only: a single-backend change.
            LoadBalancerSpec old = specs.get(i);
            String[] b = backends(i, 3, 0).split(",");
            b[0] = "10.250." + (made / 250) + "." + (made % 250 + 1) + ":8080";
            LoadBalancerSpec next = LoadBalancerSpec.builder(old.name()).routers(ROUTER).switches(SWITCH)
                    .tcp(vip(i, 20), b).group(GROUP).build();
            long t0 = System.nanoTime();
            e.engine.upsert(OWNER, next).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            lat.add((System.nanoTime() - t0) / 1e6);
            specs.set(i, next);
        }
        return lat;
    }

    /**
     * Unmeasured changes in rounds of 1,000 before measured ones: {@code warmup} of them,
     * then more rounds until one compiles for under 2% of its wall, at most as many again.
     *
     * @param warmup the changes to make at least (the {@code warm-changes} size)
     * @param client the client name, for the log
     * @return how many changes were made
     */
    int warmUp(int warmup, String client) throws Exception {
        int round = Math.min(WARM_ROUND, warmup);
        // Most methods of the change path run once or a few times per change, and C2 takes
        // them only after thousands of calls (more while its queue is long): on 2 cores the
        // compilation went on for 14-19 rounds of 1,000 changes (1.4 s of compiling in the
        // first round, under 2% of the wall from the 14th to the 19th), so the rounds go on
        // well past what a converge needs. On a loaded machine, measured after 3,000 changes,
        // p99 was 5.0 ms at 1,000 specs with 0.6 s of compiling during the measured changes;
        // settled, 0.51 ms.
        int rounds = JitWarmth.warm(pass -> {
            double jit = JitWarmth.compileSeconds();
            long tw = System.nanoTime();
            make(round);
            double w = secondsSince(tw);
            System.out.printf(Locale.ROOT, "  %s warm round %d: %d changes in %.2f s, %.0f ms of it compiling%n", client, pass,
                    round, w, (JitWarmth.compileSeconds() - jit) * 1e3);
            return w;
        }, Math.max(1, warmup / round), 2 * Math.max(1, warmup / round));
        return rounds * round;
    }
}

package dev.ovnj.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * When a Java client counts as warm: the harness (for ovnj's clients) and the OpenDaylight driver
 * (in its own JVM) repeat full-size passes of the client until one compiles for less than
 * {@link #SETTLED_SHARE} of its wall time, at most {@link #MAX_PASSES}, each followed by
 * {@link #awaitQuiet()}; so both Java peers are measured at the same steady state.
 */
public final class JitWarmth {
    /**
     * Warm passes per client at most (each a full-size run on a throw-away target). It was 3, too
     * few for code that runs a loop once per transaction or per pass: a 10,000-spec converge
     * through a group still compiled for 456 ms in its third pass, and the measured converge
     * after it paid about 300 ms of C2 time of its own (JFR thread CPU load: the compiler thread
     * busy 60-90% of a core, which on 2 cores it took from the server and the I/O thread):
     * 0.44 s wall and 0.63 s CPU, against 0.29 s and 0.30 s once settled (after 8 passes).
     */
    public static final int MAX_PASSES = 12;

    /**
     * The most warm passes any client gets in this JVM: {@link #MAX_PASSES}, or fewer when the
     * system property {@code ovnj.bench.warmPasses} says so. {@code bench/run.sh --quick} (CI,
     * which runs the harness so that it never rots, not for its figures) sets 2: twelve passes
     * of every client were most of its ten minutes there.
     */
    private static final int PASS_CAP = Math.max(1, Integer.getInteger("ovnj.bench.warmPasses", MAX_PASSES));

    /** The share of a pass's wall time below which its compilation counts as settled. */
    public static final double SETTLED_SHARE = 0.02;

    private JitWarmth() {
    }

    /** One full-size warm pass of a client. */
    @FunctionalInterface
    public interface Pass {
        /**
         * Runs the pass.
         *
         * @param pass its number, from 1
         * @return its wall time in seconds
         * @throws Exception if the pass failed
         */
        double run(int pass) throws Exception;
    }

    /**
     * Runs warm passes until one compiles for less than {@link #SETTLED_SHARE} of its wall time, at
     * most {@link #MAX_PASSES}, each followed by {@link #awaitQuiet()}.
     *
     * @param pass one pass
     * @return the number of passes run
     * @throws Exception the first pass failure (no further pass runs)
     */
    public static int warm(Pass pass) throws Exception {
        return warm(pass, 1, MAX_PASSES);
    }

    /**
     * Runs at least {@code minPasses} warm passes, then more until one compiles for less than
     * {@link #SETTLED_SHARE} of its wall time, at most {@code maxPasses}, each followed by
     * {@link #awaitQuiet()}: for passes too short to get every method they run to the optimizing
     * compiler's thresholds in three, and for clients compared with each other after the same
     * warm-up.
     *
     * @param pass one pass
     * @param minPasses the fewest passes to run
     * @param maxPasses the most passes to run
     * @return the number of passes run
     * @throws Exception the first pass failure (no further pass runs)
     */
    public static int warm(Pass pass, int minPasses, int maxPasses) throws Exception {
        int most = Math.min(maxPasses, PASS_CAP);
        int fewest = Math.min(minPasses, most);
        for (int n = 1; ; n++) {
            double jit0 = compileSeconds();
            double wall = pass.run(n);
            awaitQuiet();
            boolean settled = settled(jit0, wall);
            System.out.printf(java.util.Locale.ROOT, "    warm pass %d: %.0f ms, %.0f ms of it compiling%s%n", n, wall * 1e3,
                    (compileSeconds() - jit0) * 1e3, settled ? " (settled)" : "");
            if (n >= most || n >= fewest && settled) {
                return n;
            }
        }
    }

    /**
     * Seconds the JIT compilers have spent compiling in this JVM.
     *
     * @return the total, or 0 where the JVM does not monitor it
     */
    static double compileSeconds() {
        CompilationMXBean jit = monitored();
        return jit == null ? 0 : jit.getTotalCompilationTime() / 1e3;
    }

    /**
     * Whether a warm pass compiled for less than {@link #SETTLED_SHARE} of its wall time.
     *
     * @param compileSecondsBefore {@link #compileSeconds()} when the pass began
     * @param wallSeconds the pass's wall time
     * @return whether no further pass is needed (also when compilation is not monitored)
     */
    private static boolean settled(double compileSecondsBefore, double wallSeconds) {
        return compileSeconds() - compileSecondsBefore < SETTLED_SHARE * wallSeconds;
    }

    /**
     * Waits (at most 15 s) until the JIT compilers have been idle for half a second, so that
     * compilations queued by a warm-up do not run on the measured client's CPU time (on a busy
     * machine they did: the first of two identical clients cost 50% more CPU, whichever ran first).
     */
    private static void awaitQuiet() {
        CompilationMXBean jit = monitored();
        if (jit != null) {
            Proc.awaitSteady(jit::getTotalCompilationTime, 500, 15);
        }
    }

    private static CompilationMXBean monitored() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit : null;
    }
}

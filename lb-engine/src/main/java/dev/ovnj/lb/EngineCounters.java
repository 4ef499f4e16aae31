package dev.ovnj.lb;

import java.util.concurrent.atomic.AtomicLong;

/** The engine's counters, written by its parts and read by {@code metrics()} from any thread. */
final class EngineCounters {
    final AtomicLong transactions = new AtomicLong();
    final AtomicLong operations = new AtomicLong();
    final AtomicLong repairs = new AtomicLong();
    /** Rows written for the first time since their spec waited (see {@link AwaitedWriteEvent}); not repairs. */
    final AtomicLong awaitedWrites = new AtomicLong();
    final AtomicLong conflicts = new AtomicLong();
    final AtomicLong retries = new AtomicLong();
    final AtomicLong failures = new AtomicLong();
    final AtomicLong plans = new AtomicLong();
    final AtomicLong specPlans = new AtomicLong();
    final AtomicLong slowCacheReads = new AtomicLong();
    final AtomicLong heldDeletions = new AtomicLong();
    final AtomicLong fights = new AtomicLong();
    /**
     * Tasks the engine hands from one thread to another: steps given to the engine thread (by a
     * caller, the client's callback thread, the watchdog, or the engine thread itself) and
     * answers handed to the callers' stage threads. With {@link ListenerBus#handoffs()}, what
     * {@code EngineMetrics.handoffs} reports, so a bench can count hand-offs per change.
     */
    final AtomicLong handoffs = new AtomicLong();
    volatile long lastPlanMicros;
    volatile long longestCacheReadMicros;

    /**
     * Now, for timing work done under the cache's read lock: the thread's CPU time where the JVM
     * measures it, so a thread descheduled on a busy machine does not look like slow code.
     */
    static long now() {
        return CPU.isCurrentThreadCpuTimeSupported() ? CPU.getCurrentThreadCpuTime() : System.nanoTime();
    }

    private static final java.lang.management.ThreadMXBean CPU = java.lang.management.ManagementFactory.getThreadMXBean();

    /** Records one hold of the cache read lock that started at {@code since} (a {@link #now()} value). */
    void cacheRead(long since) {
        long micros = (now() - since) / 1000;
        if (micros > longestCacheReadMicros) {
            longestCacheReadMicros = micros;
        }
        if (micros > 10_000) {
            slowCacheReads.incrementAndGet();
        }
    }
}

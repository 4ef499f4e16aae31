package dev.ovnj.lb;

import java.util.concurrent.atomic.AtomicLong;

/** The engine's counters, written by its parts and read by {@code metrics()} from any thread. */
final class EngineCounters {
    final AtomicLong transactions = new AtomicLong();
    final AtomicLong operations = new AtomicLong();
    final AtomicLong repairs = new AtomicLong();
    final AtomicLong conflicts = new AtomicLong();
    final AtomicLong retries = new AtomicLong();
    final AtomicLong failures = new AtomicLong();
    final AtomicLong plans = new AtomicLong();
    final AtomicLong specPlans = new AtomicLong();
    volatile long lastPlanMicros;
    volatile long longestCacheReadMicros;

    void cacheRead(long nanos) {
        long micros = nanos / 1000;
        if (micros > longestCacheReadMicros) {
            longestCacheReadMicros = micros;
        }
    }
}

package dev.ovnj.testkit;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polls a condition until it holds or a deadline passes; every wait in tests has a bound. */
public final class Await {
    private Await() {
    }

    /**
     * Waits until {@code condition} is true.
     *
     * @param timeout how long to wait at most
     * @param what description used in the failure message
     * @param condition the condition, polled every 10 ms
     * @throws TestkitException when the timeout passes first
     */
    public static void until(Duration timeout, String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new TestkitException("timed out after " + timeout.toMillis() + " ms waiting for " + what);
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TestkitException("interrupted while waiting for " + what, e);
            }
        }
    }
}

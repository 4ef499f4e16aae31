package dev.ovnj.ovsdb;

import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one boundary through which a client calls code it does not own: cache, connection, lock and
 * side monitor listeners. A listener that throws is logged (with its stack trace, at most once
 * every five seconds; the rest at DEBUG) and counted, and never reaches the client's own error
 * handling, so a bug in a listener cannot drop a connection, force a resync or stop later
 * deliveries. Thread-safe.
 */
public final class ListenerFence {
    private static final Logger LOG = LoggerFactory.getLogger(ListenerFence.class);
    private static final long WARN_EVERY_NANOS = 5_000_000_000L;

    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong lastWarn = new AtomicLong(System.nanoTime() - WARN_EVERY_NANOS);

    /** Creates a fence with no failures counted. */
    public ListenerFence() {
    }

    /**
     * Calls a listener.
     *
     * @param what names the listener and the event, for the log
     * @param call the call
     * @return whether it returned normally
     */
    public boolean call(String what, Runnable call) {
        try {
            call.run();
            return true;
        } catch (RuntimeException | AssertionError e) {
            long n = failures.incrementAndGet();
            long now = System.nanoTime();
            long last = lastWarn.get();
            if (now - last >= WARN_EVERY_NANOS && lastWarn.compareAndSet(last, now)) {
                LOG.warn("{} threw (listener failures so far: {}); the client carries on", what, n, e);
            } else {
                LOG.debug("{} threw", what, e);
            }
            return false;
        }
    }

    /**
     * How many listener calls threw.
     *
     * @return the count since the client was built
     */
    public long failures() {
        return failures.get();
    }
}

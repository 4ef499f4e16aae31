package dev.ovnj.lb;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers engine events to user listeners on their own thread, so a listener can neither block
 * the engine nor stop it: every call is fenced, a failure is counted and logged at most once per
 * {@link #LOG_EVERY_NANOS} (with the number suppressed meanwhile).
 */
final class ListenerBus {
    private static final Logger LOG = LoggerFactory.getLogger(LoadBalancerEngine.class);
    private static final long LOG_EVERY_NANOS = 10_000_000_000L;

    private final List<EngineListener> listeners = new CopyOnWriteArrayList<>();
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "ovnj-engine-listeners");
        t.setDaemon(true);
        return t;
    });
    private final AtomicLong failures = new AtomicLong();
    // Listener thread only.
    private long lastLogged = System.nanoTime() - LOG_EVERY_NANOS;
    private long suppressed;

    void add(EngineListener listener) {
        listeners.add(java.util.Objects.requireNonNull(listener, "listener"));
    }

    /** Queues one event for every listener; returns at once. */
    void publish(Consumer<EngineListener> event) {
        if (listeners.isEmpty()) {
            return;
        }
        try {
            thread.execute(() -> listeners.forEach(l -> deliver(l, event)));
        } catch (RejectedExecutionException closed) {
            // After close(): listeners are no longer called.
        }
    }

    private void deliver(EngineListener listener, Consumer<EngineListener> event) {
        try {
            event.accept(listener);
        } catch (RuntimeException | Error e) {
            failures.incrementAndGet();
            long now = System.nanoTime();
            if (now - lastLogged >= LOG_EVERY_NANOS) {
                LOG.warn("engine listener {} threw {}{}; the engine carries on", listener.getClass().getName(), e,
                        suppressed == 0 ? "" : " (" + suppressed + " more listener failures since the last report)");
                lastLogged = now;
                suppressed = 0;
            } else {
                suppressed++;
            }
        }
    }

    long failures() {
        return failures.get();
    }

    /** Stops delivering; events already queued are still delivered for a short while. */
    void close() {
        thread.shutdown();
        if (Thread.currentThread().getName().equals("ovnj-engine-listeners")) {
            // A listener closing the engine: do not wait for ourselves.
            return;
        }
        try {
            thread.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        thread.shutdownNow();
    }
}

package dev.ovnj.lb;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
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
 * {@link #LOG_EVERY_NANOS} (with the number suppressed meanwhile). An event goes only to the
 * listeners that override its method: a kind of event nobody listens to costs the engine nothing,
 * in particular no wake-up of the listener thread in the middle of a change.
 */
final class ListenerBus {
    /** A kind of event, named after the {@link EngineListener} methods that receive it. */
    enum Event {
        STATUS("onStatus"),
        REPAIRS("onRepair", "onRepairs"),
        AWAITED_WRITES("onAwaitedWrite", "onAwaitedWrites"),
        TRANSACTION("onTransaction"),
        AVAILABILITY("onAvailability"),
        BACKEND_HEALTH("onBackendHealth"),
        OPERATING("onOperatingStatus"),
        HELD("onDeletionsHeld"),
        REMOVED("onRemoved");

        private final Set<String> methods;

        Event(String... methods) {
            this.methods = Set.of(methods);
        }
    }

    /** A listener and the events it overrides a method for. */
    private record Subscriber(EngineListener listener, Set<Event> events) {
    }

    private static final Logger LOG = LoggerFactory.getLogger(ListenerBus.class);
    private static final long LOG_EVERY_NANOS = 10_000_000_000L;

    private final List<Subscriber> listeners = new CopyOnWriteArrayList<>();
    /** The union of every listener's events, read on each publication. */
    private volatile Set<Event> wanted = EnumSet.noneOf(Event.class);
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "ovnj-engine-listeners");
        t.setDaemon(true);
        return t;
    });
    private final AtomicLong failures = new AtomicLong();
    /** Tasks handed to the listener thread (see {@link EngineCounters#handoffs}). */
    private final AtomicLong handoffs = new AtomicLong();
    /** Events published during an engine step, queued once its statuses are published (see {@link #hold()}). */
    private final ThreadLocal<List<Runnable>> held = new ThreadLocal<>();
    // Listener thread only.
    private long lastLogged = System.nanoTime() - LOG_EVERY_NANOS;
    private long suppressed;

    synchronized void add(EngineListener listener) {
        Subscriber s = new Subscriber(java.util.Objects.requireNonNull(listener, "listener"), overridden(listener.getClass()));
        listeners.add(s);
        Set<Event> all = EnumSet.noneOf(Event.class);
        all.addAll(wanted);
        all.addAll(s.events());
        wanted = all;
    }

    /**
     * Stops delivering to a listener (the first registration of it, compared by identity); events
     * already queued for it may still reach it.
     *
     * @return whether it was registered
     */
    synchronized boolean remove(EngineListener listener) {
        java.util.Objects.requireNonNull(listener, "listener");
        Subscriber found = null;
        for (Subscriber s : listeners) {
            if (s.listener() == listener) {
                found = s;
                break;
            }
        }
        if (found == null) {
            return false;
        }
        listeners.remove(found);
        Set<Event> all = EnumSet.noneOf(Event.class);
        listeners.forEach(s -> all.addAll(s.events()));
        wanted = all;
        return true;
    }

    /** The events whose methods a listener class overrides (all of them if reflection is refused). */
    private static Set<Event> overridden(Class<?> type) {
        Set<Event> out = EnumSet.noneOf(Event.class);
        try {
            for (Method m : type.getMethods()) {
                if (m.getDeclaringClass() != EngineListener.class) {
                    for (Event e : Event.values()) {
                        if (e.methods.contains(m.getName())) {
                            out.add(e);
                        }
                    }
                }
            }
        } catch (SecurityException e) {
            return EnumSet.allOf(Event.class);
        }
        return out;
    }

    /**
     * Whether some listener receives this kind of event: lets a caller skip building one.
     *
     * @param kind the kind of event
     * @return true if {@link #publish} would queue it
     */
    boolean wants(Event kind) {
        return wanted.contains(kind);
    }

    /**
     * Holds back the events the calling thread publishes until {@link #release()}: the engine
     * thread holds them for the length of a step, so a listener never hears of a status, a repair
     * or a verdict before {@code status()} shows it (the board is published at the end of the step).
     */
    void hold() {
        held.set(new ArrayList<>());
    }

    /**
     * Queues the events held since {@link #hold()} on this thread, in the order they were
     * published, as one task: a step's events cost the listener thread one wake-up, not one each.
     */
    void release() {
        List<Runnable> events = held.get();
        held.remove();
        if (events != null && !events.isEmpty()) {
            handOff(() -> events.forEach(Runnable::run));
        }
    }

    /** Queues one event for every listener that overrides its method; returns at once. */
    void publish(Event kind, Consumer<EngineListener> event) {
        if (!wanted.contains(kind)) {
            return;
        }
        Runnable delivery = () -> listeners.forEach(s -> {
            if (s.events().contains(kind)) {
                deliver(s.listener(), event);
            }
        });
        List<Runnable> holding = held.get();
        if (holding != null) {
            holding.add(delivery);
            return;
        }
        handOff(delivery);
    }

    /** Runs deliveries on the listener thread; counted as one hand-off. */
    private void handOff(Runnable deliveries) {
        try {
            thread.execute(deliveries);
            handoffs.incrementAndGet();
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

    long handoffs() {
        return handoffs.get();
    }

    /**
     * Stops delivering: events already queued are delivered for at most {@code waitNanos} more
     * (waited for here), then the thread is interrupted and the rest dropped.
     *
     * @return whether every queued event was delivered in time
     */
    boolean close(long waitNanos) {
        thread.shutdown();
        if (Thread.currentThread().getName().equals("ovnj-engine-listeners")) {
            // A listener closing the engine: do not wait for ourselves.
            return false;
        }
        boolean done = false;
        try {
            done = thread.awaitTermination(Math.max(0, waitNanos), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!done) {
            thread.shutdownNow();
        }
        return done;
    }
}

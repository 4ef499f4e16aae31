package dev.ovnj.lb;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.BiPredicate;

/**
 * What the client's callback thread hands the engine: cache events and transaction answers, the
 * one path from that thread to the engine thread. It is where the engine's one ordering
 * assumption holds: the client applies a transaction's monitor updates and fires their cache
 * events before it completes the transaction's future, both on its one callback thread; this
 * inbox keeps them in that order, so when the engine handles a transaction's answer it has
 * already handled the events of its updates, and a fresh plan (the commit's verification) sees
 * its rows. Whatever arrives while a drain is queued or running rides along with it.
 *
 * <p>Cache events that arrive while the engine's transactions are in flight do not wake the
 * engine: they are nearly always those transactions' own updates, their answers follow on the
 * same thread at once, and no pass can start before the last answer anyway. So the events and the
 * answer of one transaction cost the engine thread one wake-up, not two. Everything else wakes it
 * (and takes the waiting events along, in order), and the end of a round or the watchdog's nudge
 * drains whatever is left, so no item waits for long.
 */
final class CallbackInbox {
    /** One thing to do on the engine thread, with its name for the stall report. */
    private record Item(String name, Runnable work) {
    }

    private static final int MAX_PER_STEP = 64;

    private final ConcurrentLinkedQueue<Item> items = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean drainQueued = new AtomicBoolean();
    /** The engine thread is in {@link #drain()}, whose end drains what is left. */
    private volatile boolean draining;
    /** Queues a step on the engine thread; false when the engine is closed. */
    private final BiPredicate<String, Runnable> step;
    /** Runs one item on the engine thread, fenced (its failure confined to it). */
    private final BiConsumer<String, Runnable> fenced;

    CallbackInbox(BiPredicate<String, Runnable> step, BiConsumer<String, Runnable> fenced) {
        this.step = step;
        this.fenced = fenced;
    }

    /**
     * Called on the client's callback thread: queues work for the engine thread behind everything
     * the callback thread queued before.
     *
     * @param wake whether the engine thread should run it now; false leaves it for the next wake-up
     * @return false if the engine is closed
     */
    boolean offer(String name, Runnable work, boolean wake) {
        items.add(new Item(name, work));
        return !wake || nudge();
    }

    /**
     * Any thread: has the engine thread drain what is queued, if anything is and no drain is queued yet.
     *
     * @return false if the engine is closed
     */
    boolean nudge() {
        if (draining || items.isEmpty() || !drainQueued.compareAndSet(false, true)) {
            return true;
        }
        if (!step.test("callbacks", this::drain)) {
            drainQueued.set(false);
            return false;
        }
        return true;
    }

    /** Engine thread: runs what is queued, in order; a bounded number per step, so other steps are not starved. */
    private void drain() {
        // Cleared first: whatever arrives from now on is either taken below or queues a new drain.
        drainQueued.set(false);
        draining = true;
        try {
            Item item;
            for (int n = 0; n < MAX_PER_STEP && (item = items.poll()) != null; n++) {
                fenced.accept(item.name(), item.work());
            }
        } finally {
            draining = false;
        }
        nudge();
    }
}

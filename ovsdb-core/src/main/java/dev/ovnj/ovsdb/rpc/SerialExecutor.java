package dev.ovnj.ovsdb.rpc;

import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs tasks one at a time in submission order on a possibly multi-threaded delegate, so that a
 * shared pool can deliver one connection's notifications without reordering them.
 *
 * <p>A task that throws is logged and does not stop later tasks.
 */
public final class SerialExecutor implements Executor {

    private static final Logger LOG = LoggerFactory.getLogger(SerialExecutor.class);

    private final Executor delegate;
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();

    /**
     * Creates a serial view of the delegate.
     *
     * @param delegate the executor that provides the threads
     */
    public SerialExecutor(Executor delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    @Override
    public void execute(Runnable task) {
        tasks.add(Objects.requireNonNull(task, "task"));
        scheduleDrain();
    }

    private void scheduleDrain() {
        if (!tasks.isEmpty() && scheduled.compareAndSet(false, true)) {
            try {
                delegate.execute(this::drain);
            } catch (RuntimeException e) {
                scheduled.set(false);
                throw e;
            }
        }
    }

    private void drain() {
        try {
            for (Runnable task; (task = tasks.poll()) != null; ) {
                runSafely(task);
            }
        } finally {
            scheduled.set(false);
        }
        // A task may have been added after the last poll but before the flag was cleared.
        scheduleDrain();
    }

    private static void runSafely(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            LOG.warn("serial task {} failed", task, e);
        }
    }
}

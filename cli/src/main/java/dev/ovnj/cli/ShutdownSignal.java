package dev.ovnj.cli;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Turns SIGINT and SIGTERM into a request to stop that a long-running command waits on, so it can
 * close the engine and the client before the JVM goes. The JVM would exit with 130 or 143 after
 * a signal; a shutdown that went as asked exits 0 instead, which is what service managers expect.
 */
final class ShutdownSignal implements AutoCloseable {
    private static final Duration GRACE = Duration.ofSeconds(10);
    private final CountDownLatch requested = new CountDownLatch(1);
    private final CountDownLatch finished = new CountDownLatch(1);
    private final Thread hook = new Thread(this::onSignal, "ovnj-shutdown");

    private ShutdownSignal() {
    }

    /**
     * Installs the shutdown hook.
     *
     * @return the signal
     */
    static ShutdownSignal install() {
        ShutdownSignal s = new ShutdownSignal();
        Runtime.getRuntime().addShutdownHook(s.hook);
        return s;
    }

    /**
     * Waits for a stop request.
     *
     * @param timeout the longest wait
     * @return true when a stop was requested
     * @throws InterruptedException when interrupted
     */
    boolean await(Duration timeout) throws InterruptedException {
        return requested.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Reports that the command has cleaned up; after a signal, this ends the process with 0. */
    @Override
    public void close() {
        finished.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The hook is already running and will end the process.
        }
    }

    private void onSignal() {
        requested.countDown();
        try {
            if (finished.await(GRACE.toNanos(), TimeUnit.NANOSECONDS)) {
                Runtime.getRuntime().halt(0);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

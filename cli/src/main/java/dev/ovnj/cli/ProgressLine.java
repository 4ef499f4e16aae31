package dev.ovnj.cli;

import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * A one-line "still working" indicator on standard error for a wait that lasts longer than
 * {@link #DELAY}, rewritten in place each second and erased when the wait ends. Only on a terminal
 * (a console is attached) and never with JSON output, so scripts and logs never see it.
 */
final class ProgressLine implements AutoCloseable {
    /** How long a wait stays silent before the line appears. */
    static final Duration DELAY = Duration.ofSeconds(2);

    private final ScheduledExecutorService timer;
    private final PrintStream err;
    private final long started = System.nanoTime();
    private boolean shown;

    private ProgressLine(ScheduledExecutorService timer, PrintStream err) {
        this.timer = timer;
        this.err = err;
    }

    /**
     * Starts the indicator, or a silent one when there is no terminal or JSON is printed.
     *
     * @param what what is being waited for, e.g. {@code reconciling owner team-a}
     * @param json whether the command prints JSON
     * @return the indicator, to close when the wait ends
     */
    static ProgressLine start(String what, boolean json) {
        if (json || System.console() == null) {
            return new ProgressLine(null, System.err);
        }
        ThreadFactory daemon = r -> {
            Thread t = new Thread(r, "ovnj-progress");
            t.setDaemon(true);
            return t;
        };
        ProgressLine line = new ProgressLine(Executors.newSingleThreadScheduledExecutor(daemon), System.err);
        line.timer.scheduleAtFixedRate(() -> line.show(what), DELAY.toMillis(), 1000, TimeUnit.MILLISECONDS);
        return line;
    }

    private synchronized void show(String what) {
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
        err.print("\r" + what + ": waiting for the database (" + seconds + " s)\u001b[K");
        err.flush();
        shown = true;
    }

    /** Stops the indicator and erases its line if it was shown. */
    @Override
    public void close() {
        if (timer == null) {
            return;
        }
        timer.shutdownNow();
        synchronized (this) {
            if (shown) {
                err.print("\r\u001b[K");
                err.flush();
            }
        }
    }
}

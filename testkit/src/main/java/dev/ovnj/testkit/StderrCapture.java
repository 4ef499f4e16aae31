package dev.ovnj.testkit;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Copies everything written to {@code System.err} while it is open, still passing it through.
 * slf4j-simple (the tests' logger, and Netty's through slf4j) looks {@code System.err} up on every
 * line, so this sees log output too: for asserting what is, or is not, logged.
 */
public final class StderrCapture implements AutoCloseable {
    private final PrintStream original;
    private final ByteArrayOutputStream copy = new ByteArrayOutputStream();
    // While set, writes go here only: neither passed through nor copied (see divert).
    private ByteArrayOutputStream diverted;

    private StderrCapture() {
        this.original = System.err;
        OutputStream tee = new OutputStream() {
            @Override
            public void write(int b) {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                synchronized (copy) {
                    if (diverted != null) {
                        diverted.write(b, off, len);
                        return;
                    }
                    copy.write(b, off, len);
                }
                original.write(b, off, len);
            }
        };
        System.setErr(new PrintStream(tee, true, StandardCharsets.UTF_8));
    }

    /**
     * Starts capturing.
     *
     * @return the capture; close it to restore {@code System.err}
     */
    public static StderrCapture start() {
        return new StderrCapture();
    }

    /**
     * Everything captured so far.
     *
     * @return everything captured so far
     */
    public String text() {
        synchronized (copy) {
            return copy.toString(StandardCharsets.UTF_8);
        }
    }

    /** Forgets what was captured so far. */
    public void clear() {
        synchronized (copy) {
            copy.reset();
        }
    }

    /**
     * Runs an action while holding back what is written to {@code System.err}: it is neither passed
     * through nor captured, but returned, for the caller to {@link #passOn} what it does not expect
     * (e.g. everything but a deliberate leak's report, which must not read as a real one in the
     * build's output).
     *
     * @param action what to run
     * @return what was written to {@code System.err} meanwhile
     */
    public String divert(Runnable action) {
        ByteArrayOutputStream held = new ByteArrayOutputStream();
        synchronized (copy) {
            diverted = held;
        }
        try {
            action.run();
        } finally {
            synchronized (copy) {
                diverted = null;
            }
        }
        return held.toString(StandardCharsets.UTF_8);
    }

    /**
     * Treats text as if it had been written to {@code System.err} now: passed through and captured.
     *
     * @param text the text, typically part of what {@link #divert} returned
     */
    public void passOn(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        synchronized (copy) {
            copy.write(bytes, 0, bytes.length);
        }
        original.write(bytes, 0, bytes.length);
        original.flush();
    }

    @Override
    public void close() {
        System.setErr(original);
    }
}

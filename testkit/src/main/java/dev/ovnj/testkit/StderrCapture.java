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

    private StderrCapture() {
        this.original = System.err;
        OutputStream tee = new OutputStream() {
            @Override
            public void write(int b) {
                original.write(b);
                synchronized (copy) {
                    copy.write(b);
                }
            }

            @Override
            public void write(byte[] b, int off, int len) {
                original.write(b, off, len);
                synchronized (copy) {
                    copy.write(b, off, len);
                }
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

    @Override
    public void close() {
        System.setErr(original);
    }
}

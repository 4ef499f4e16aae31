package dev.ovnj.testkit;

/** A test fixture could not be set up or driven: a tool failed, a server did not start, a wait ran out. */
public class TestkitException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what failed
     */
    public TestkitException(String message) {
        super(message);
    }

    /**
     * Creates the exception.
     *
     * @param message what failed
     * @param cause the underlying failure
     */
    public TestkitException(String message, Throwable cause) {
        super(message, cause);
    }
}

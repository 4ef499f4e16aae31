package dev.ovnj.cli;

/**
 * A problem that ends a command with exit code 2 and one line on stderr: the database cannot be
 * reached, an option is wrong, the engine did not finish in time.
 */
final class CliFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CliFailure(String message) {
        super(message);
    }

    CliFailure(String message, Throwable cause) {
        super(message, cause);
    }
}

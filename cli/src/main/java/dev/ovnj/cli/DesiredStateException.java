package dev.ovnj.cli;

/**
 * A desired-state file cannot be used as a whole: it is unreadable, not YAML/JSON, or its structure
 * is wrong (an unknown field, a wrong type, an unknown protocol). The message is one line starting
 * with {@code file:line:}.
 */
final class DesiredStateException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    DesiredStateException(String message) {
        super(message);
    }

    DesiredStateException(String message, Throwable cause) {
        super(message, cause);
    }
}

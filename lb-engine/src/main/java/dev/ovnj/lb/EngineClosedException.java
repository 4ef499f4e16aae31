package dev.ovnj.lb;

/**
 * The engine was closed before a request was answered, or a request came after {@code close()}.
 * Nothing more is written for it; whatever was already committed stays.
 */
public final class EngineClosedException extends EngineException {
    private static final long serialVersionUID = 1L;

    EngineClosedException() {
        super("engine closed");
    }
}

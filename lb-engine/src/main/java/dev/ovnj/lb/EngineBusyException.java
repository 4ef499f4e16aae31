package dev.ovnj.lb;

/** Too many requests are waiting for the database; retry later (backpressure). */
public final class EngineBusyException extends EngineException {
    private static final long serialVersionUID = 1L;

    EngineBusyException(String message) {
        super(message);
    }
}

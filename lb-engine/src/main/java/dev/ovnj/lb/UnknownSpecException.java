package dev.ovnj.lb;

/**
 * A {@code remove} named a spec that its owner never declared (or that is already gone) and of
 * which the database holds no row: nothing was removed because there was nothing to remove. A
 * caller that removes idempotently (a finalizer run twice) may treat it as done.
 */
public final class UnknownSpecException extends EngineException {
    private static final long serialVersionUID = 1L;
    private final String owner;
    private final String spec;

    UnknownSpecException(String owner, String spec) {
        super("owner " + owner + ": nothing is declared under the name " + spec + " and the database holds no row of it; nothing removed");
        this.owner = owner;
        this.spec = spec;
    }

    /**
     * The owner of the request.
     *
     * @return the owner
     */
    public String owner() {
        return owner;
    }

    /**
     * The spec name that was not found.
     *
     * @return the name
     */
    public String spec() {
        return spec;
    }
}

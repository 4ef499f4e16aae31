package dev.ovnj.lb;

/**
 * An {@code upsert} or {@code remove} that the engine could not carry out: the spec is in
 * {@link SpecStatus.State#CONFLICT} or {@link SpecStatus.State#FAILED}. The status says why
 * (conflicting rows, the server's error and details).
 */
public final class SpecFailedException extends EngineException {
    private static final long serialVersionUID = 1L;
    private final transient SpecStatus status;

    SpecFailedException(SpecStatus status) {
        super("owner " + status.owner() + ", spec " + status.spec() + ": " + status.state().name().toLowerCase(java.util.Locale.ROOT)
                + ": " + status.reason());
        this.status = status;
    }

    /**
     * The spec's status when it failed.
     *
     * @return the status, with its reason and structured detail
     */
    public SpecStatus status() {
        return status;
    }
}

package dev.ovnj.lb;

/**
 * An {@code upsert} or {@code remove} that the engine could not carry out: the spec is in
 * {@link SpecStatus.State#CONFLICT} or {@link SpecStatus.State#FAILED}. The status says why
 * (conflicting rows, the server's error and details). A failed {@code upsert}'s declaration is
 * withdrawn (the spec's previous declaration stands again, or none), unless it was made with
 * {@link UpsertOption#KEEP_DECLARED}: then the spec stays in that state and is written as soon as
 * it can be (e.g. once the conflicting row is gone).
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

package dev.ovnj.lb;

/**
 * Options of one {@link LoadBalancerEngine#upsert(String, dev.ovnj.lb.spec.LoadBalancerSpec, UpsertOption...)}
 * call: {@link #KEEP_DECLARED}, or an {@link Adoption} (rows of another owner, or of none, that the
 * spec may take over in place).
 */
public sealed interface UpsertOption permits UpsertOption.Flag, Adoption {
    /**
     * Keep the spec declared when the upsert's future fails (CONFLICT, FAILED, INVALID, or no
     * verdict within the request timeout): the engine goes on reconciling it and writes it as
     * soon as it can, e.g. once the other owner's row that it conflicts with is gone. Without this
     * option a failed upsert leaves nothing declared for the spec: the engine and the database
     * are as before the call (the previous declaration of the spec, if any, stands).
     */
    UpsertOption KEEP_DECLARED = Flag.KEEP_DECLARED;

    /** The options without a parameter. */
    enum Flag implements UpsertOption {
        /** See {@link UpsertOption#KEEP_DECLARED}. */
        KEEP_DECLARED
    }
}

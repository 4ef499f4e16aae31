package dev.ovnj.lb;

import dev.ovnj.lb.spec.SpecError;
import java.util.List;
import java.util.stream.Collectors;

/**
 * An {@code upsert} or {@code apply} was refused because a spec is invalid; nothing was written for
 * it. Its {@link #errors()} name owner, spec and field, with the same text as the
 * {@link dev.ovnj.lb.spec.SpecException} that {@code LoadBalancerSpec.Builder.build()} throws for
 * the problems it can see without a database.
 */
public final class InvalidSpecException extends EngineException {
    private static final long serialVersionUID = 1L;
    private final transient List<SpecError> errors;

    InvalidSpecException(List<SpecError> errors) {
        super(errors.stream().map(SpecError::toString).collect(Collectors.joining("; ")));
        this.errors = List.copyOf(errors);
    }

    /**
     * Every problem found, each naming owner, spec and field.
     *
     * @return every problem found
     */
    public List<SpecError> errors() {
        return errors;
    }
}

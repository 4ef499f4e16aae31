package dev.ovnj.lb;

import dev.ovnj.lb.spec.SpecError;
import java.util.List;
import java.util.stream.Collectors;

/** An {@code upsert} was refused because its spec is invalid; nothing was written. */
public final class InvalidSpecException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient List<SpecError> errors;

    InvalidSpecException(List<SpecError> errors) {
        super(errors.stream().map(SpecError::toString).collect(Collectors.joining("; ")));
        this.errors = List.copyOf(errors);
    }

    /**
     * Every problem found, each naming owner, spec and field.
     *
     * @return every problem found, each naming owner, spec and field
     */
    public List<SpecError> errors() {
        return errors;
    }
}
